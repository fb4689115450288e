"""Dimensions of work, writing, reading and news."""

from __future__ import annotations

from bench.generator.dims import AVOID, EMOJI, SIGNOFFS, TOPIC_WORDS, Add, Catalog, Dim, b, exact, ident, p

NEWS = tuple(TOPIC_WORDS)


def _work(dim: Add) -> None:
    dim(
        "meeting.duration",
        (15, 25, 30, 45, 50),
        p(
            **{
                "15": ["fifteen-minute meetings"],
                "25": ["25-minute meetings"],
                "30": ["half-hour meetings"],
                "45": ["45-minute meetings"],
                "50": ["50-minute meetings"],
            }
        ),
        ["meetings", "meeting length"],
        bindings=(b("create_event", "duration_minutes", exact((15, 25, 30, 45, 50))),),
    )
    dim(
        "meeting.buffer",
        (0, 5, 10, 15),
        p(
            **{
                "0": ["back-to-back meetings"],
                "5": ["a five-minute gap before meetings"],
                "10": ["a ten-minute buffer"],
                "15": ["a fifteen-minute buffer before meetings"],
            }
        ),
        ["gaps between meetings", "my calendar"],
        bindings=(b("create_event", "buffer_minutes", exact((0, 5, 10, 15))),),
    )
    fm = ("in_person", "video", "phone")
    dim(
        "meeting.format",
        fm,
        p(in_person=["meeting face to face"], video=["video calls"], phone=["phone calls", "audio only"]),
        ["meetings", "how I meet people"],
        bindings=(b("create_event", "format", ident(fm)),),
    )
    dim(
        "event.reminder",
        (0, 5, 10, 15, 30),
        p(
            **{
                "0": ["no reminder"],
                "5": ["a reminder five minutes before"],
                "10": ["a ten-minute reminder"],
                "15": ["a fifteen-minute reminder"],
                "30": ["a reminder half an hour before"],
            }
        ),
        ["calendar reminders", "event alerts"],
        bindings=(b("create_event", "reminder_minutes", exact((0, 5, 10, 15, 30))),),
    )
    dim(
        "focus.duration",
        (60, 90, 120, 180),
        p(
            **{
                "60": ["one-hour focus blocks"],
                "90": ["ninety-minute blocks"],
                "120": ["two-hour blocks"],
                "180": ["three-hour blocks"],
            }
        ),
        ["focus time", "deep work blocks"],
        bindings=(b("create_event", "duration_minutes", exact((60, 90, 120, 180))),),
    )
    vis = ("busy", "private", "public")
    dim(
        "focus.visibility",
        vis,
        p(busy=["shown as busy"], private=["marked private"], public=["visible to everyone"]),
        ["focus blocks", "what people see in my calendar"],
        bindings=(b("create_event", "visibility", ident(vis)),),
    )
    dim(
        "reminder.lead",
        (5, 10, 30, 60, 1440),
        p(
            **{
                "5": ["five minutes' warning"],
                "10": ["ten minutes' notice"],
                "30": ["half an hour's notice"],
                "60": ["an hour's notice"],
                "1440": ["a reminder the day before"],
            }
        ),
        ["reminders", "how early I get reminded"],
        bindings=(b("set_reminder", "lead_minutes", exact((5, 10, 30, 60, 1440))),),
    )
    ch = ("notification", "email", "sms", "call")
    dim(
        "reminder.channel",
        ch,
        p(
            notification=["a phone notification"],
            email=["an email"],
            sms=["a text message"],
            call=["a phone call"],
        ),
        ["reminders", "how you remind me"],
        bindings=(b("set_reminder", "channel", ident(ch)),),
    )
    dim(
        "email.mode",
        ("send", "draft", "schedule"),
        p(
            send=["sending straight away"],
            draft=["a draft I can check first"],
            schedule=["scheduling it for the next morning"],
        ),
        ["emails you write for me", "sending emails"],
        bindings=(b("send_email", "mode", ident(("send", "draft", "schedule"))),),
    )
    tones = ("formal", "neutral", "casual", "warm")
    dim(
        "write.tone",
        tones,
        p(
            formal=["a formal tone"],
            neutral=["a neutral tone"],
            casual=["a casual, relaxed tone"],
            warm=["a warm, friendly tone"],
        ),
        ["my emails", "how I sound in writing"],
        bindings=(b("send_email", "tone", ident(tones)),),
        rubric={
            "formal": "The text is formal and polished: no slang, no contractions-heavy chattiness.",
            "casual": "The text is casual and relaxed, like a note to a friend; not stiff or corporate.",
            "warm": "The text is warm and friendly, with personal warmth rather than a businesslike tone.",
        },
    )
    dim(
        "write.signoff",
        SIGNOFFS,
        {s: [f"'{s}'"] for s in SIGNOFFS},
        ["how I sign off", "email endings"],
        bindings=(
            b(
                "send_email",
                "sign_off",
                {s: s for s in SIGNOFFS},
                {s: [s] for s in SIGNOFFS},
                "param_contains_any",
            ),
        ),
        text={s: (("text_contains_any", {"any": [s]}),) for s in SIGNOFFS},
        asks={
            "*": (
                "Sign it off with {p}, like I always do.",
                "End it with {p} please.",
                "Change the closing to {p}.",
            )
        },
    )


def _text(dim: Add) -> None:
    lengths = ("short", "medium", "long")
    dim(
        "write.length",
        lengths,
        p(short=["short messages"], medium=["medium-length messages"], long=["long, detailed messages"]),
        ["emails and messages", "things I send"],
        text={"short": (("text_max_words", {"max": 90}),), "long": (("text_min_words", {"min": 220}),)},
        asks={
            "short": (
                "Too long. Cut it down to a few lines.",
                "Can you make that shorter? Nobody reads long emails.",
                "Trim it, please, half the length.",
                "Shorter. Much shorter.",
            ),
            "long": (
                "This feels too thin. Can you expand it?",
                "Add more detail, I like it thorough.",
                "Flesh that out a lot more, please.",
                "Longer please, it reads as curt.",
            ),
        },
    )
    dim(
        "read.length",
        lengths,
        p(short=["short answers"], medium=["medium-length answers"], long=["long, in-depth answers"]),
        ["summaries and explanations", "how much I read"],
        text={"short": (("text_max_words", {"max": 100}),), "long": (("text_min_words", {"min": 250}),)},
        asks={
            "short": (
                "Too much to read. Give me the short version.",
                "Summarise that in a few lines?",
                "Condense that, I just need the gist.",
                "Way too long for me, cut it down.",
            ),
            "long": (
                "Go deeper, I want the full picture.",
                "More detail please, I like long explanations.",
                "That's too brief. Expand on it properly.",
                "Can you give me the long version?",
            ),
        },
    )
    fmts = ("bullets", "numbered", "prose")
    dim(
        "read.format",
        fmts,
        p(bullets=["bullet points"], numbered=["numbered lists"], prose=["normal paragraphs"]),
        ["how things are laid out", "lists and layout"],
        bindings=(b("save_note", "format", ident(fmts)),),
        text={f: (("text_format", {"format": f}),) for f in fmts},
        asks={
            "bullets": (
                "Can you put that in bullet points?",
                "Bullets please, easier to skim.",
                "Break it into bullet points for me.",
            ),
            "numbered": (
                "Number those, please.",
                "Make it a numbered list so I can tick things off.",
                "Can you turn that into a numbered list?",
            ),
            "prose": (
                "No bullet points please, just write it as normal paragraphs.",
                "Rewrite that as flowing text? Lists feel choppy to me.",
                "Paragraphs, please, not a list.",
            ),
        },
    )
    dim(
        "read.tldr",
        ("yes", "no"),
        p(yes=["a TL;DR at the top"], no=["no summary line"]),
        ["summaries", "long documents"],
        text={"yes": (("text_contains_any", {"any": ["TL;DR", "TLDR"]}),)},
        asks={
            "yes": (
                "Stick a TL;DR at the top, like usual.",
                "Lead with a TL;DR please.",
                "Where's the TL;DR? Always put one first.",
            )
        },
    )
    dim(
        "work.actions",
        ("yes", "no"),
        p(yes=["an action items section"], no=["no action list"]),
        ["work documents", "summaries at work"],
        text={"yes": (("text_contains_any", {"any": ["Action items", "Next steps"]}),)},
        asks={
            "yes": (
                "Add the action items at the end.",
                "Finish with the next steps, please.",
                "Don't forget the action items section.",
            )
        },
    )
    dim(
        "units",
        ("metric", "imperial"),
        p(
            metric=["kilometres and kilograms", "metric units"],
            imperial=["miles and pounds", "imperial units"],
        ),
        ["units", "distances"],
        text={
            "metric": (
                ("text_contains_any", {"any": ["km", "kilometres", "kilometers", "metres", "meters"]}),
            ),
            "imperial": (("text_contains_any", {"any": ["miles", "mile", "feet", "yards"]}),),
        },
        asks={
            "metric": (
                "Give me that in kilometres, I don't think in miles.",
                "Metric please, km and kg.",
                "Did about {n} km this morning, legs are dead.",
            ),
            "imperial": (
                "Miles please, I can't picture kilometres.",
                "Can you give that in miles?",
                "Walked about {n} miles today, felt good.",
            ),
        },
    )
    dim(
        "write.avoid",
        AVOID,
        {a: [f"'{a}'"] for a in AVOID},
        ["phrases I hate", "clichés"],
        text={a: (("text_contains_none", {"none": [a]}),) for a in AVOID},
        asks={
            "*": (
                "Please never write {p}. I can't stand that phrase.",
                "Take out {p}. I hate it.",
                "Don't use {p} in anything you write for me.",
            )
        },
        rejectable=False,
    )
    dim(
        "write.emoji",
        ("yes", "no"),
        p(yes=["a couple of emojis"], no=["no emojis"]),
        ["emojis", "casual messages"],
        text={
            "yes": (("text_contains_any", {"any": EMOJI}),),
            "no": (("text_contains_none", {"none": EMOJI}),),
        },
        asks={
            "yes": (
                "Add an emoji or two 🙂",
                "Needs a couple of emojis, it's too dry.",
                "Throw in some emojis, that's my style 🎉",
            ),
            "no": (
                "Take the emojis out, please.",
                "No emojis, they look silly coming from me.",
                "Lose the emoji.",
            ),
        },
    )
    dim(
        "write.hashtags",
        ("yes", "no"),
        p(yes=["a few hashtags"], no=["no hashtags"]),
        ["hashtags", "posts"],
        text={
            "yes": (("text_contains_any", {"any": ["#"]}),),
            "no": (("text_contains_none", {"none": ["#"]}),),
        },
        asks={
            "yes": (
                "Add a couple of hashtags at the end.",
                "Hashtags please, otherwise nobody sees it.",
                "Tag it, a few hashtags.",
            ),
            "no": (
                "No hashtags, please. I hate them.",
                "Remove the hashtags.",
                "Drop the hashtags, they look desperate.",
            ),
        },
    )


def _info(dim: Add) -> None:
    dim(
        "news.topic",
        NEWS,
        {t: [TOPIC_WORDS[t][0]] for t in NEWS},
        ["news", "what I follow"],
        bindings=(b("subscribe_news", "topics", {t: [t] for t in NEWS}),),
        text={t: (("text_contains_any", {"any": TOPIC_WORDS[t]}),) for t in NEWS},
        asks={
            "*": (
                "Anything new on {p} today?",
                "Did you see the latest {p} story?",
                "I've been reading a lot about {p} lately.",
            )
        },
    )
    dim(
        "news.avoid",
        NEWS,
        {t: [TOPIC_WORDS[t][0]] for t in NEWS},
        ["news I skip", "topics I avoid"],
        bindings=(
            b("subscribe_news", "exclude_topics", {t: [t] for t in NEWS}),
            b("subscribe_news", "topics", {}, {t: [t] for t in NEWS}, "param_contains_none"),
        ),
        text={t: (("text_contains_none", {"none": TOPIC_WORDS[t]}),) for t in NEWS},
        asks={
            "*": (
                "Please spare me the {p} stories.",
                "I honestly don't care about {p}. Skip it.",
                "No {p} please, it just winds me up.",
            )
        },
        rejectable=False,
    )
    fq = ("daily", "twice_daily", "weekly")
    dim(
        "news.frequency",
        fq,
        p(
            daily=["one briefing a day"],
            twice_daily=["a morning and an evening briefing"],
            weekly=["a weekly roundup"],
        ),
        ["news briefings", "how often I read news"],
        bindings=(b("subscribe_news", "frequency", ident(fq)),),
    )
    dp = ("headlines", "summaries", "long_reads")
    dim(
        "news.depth",
        dp,
        p(headlines=["just the headlines"], summaries=["short summaries"], long_reads=["long reads"]),
        ["news", "how deep I read"],
        bindings=(b("subscribe_news", "format", ident(dp)),),
    )
    dim(
        "notes.pinned",
        ("yes", "no"),
        p(yes=["pinned to the top"], no=["not pinned"]),
        ["my notes", "notes I save"],
        bindings=(b("save_note", "pinned", {"yes": True, "no": None}),),
    )
    fl = ("meetings", "work", "projects")
    dim(
        "notes.folder",
        fl,
        p(meetings=["the Meetings folder"], work=["the Work folder"], projects=["the Projects folder"]),
        ["meeting notes", "where notes go"],
        bindings=(b("save_note", "folder", ident(fl)),),
    )


def build() -> list[Dim]:
    c = Catalog()
    for part in (_work, _text, _info):
        part(c.add)
    return c.items
