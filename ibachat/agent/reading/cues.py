"""The words that give a mention its stance: cues before it, cues after it, and verdicts.

Each cue is (pattern, polarity, strength, tags); longer phrases win over the shorter ones
they contain. Tags: ``habit`` (what the user usually does), ``update`` (a change),
``request`` (asked for now), ``weak`` (a bare "I'm"), ``exact`` (about that value only,
"too mild"), ``alt`` (a value passed over), ``used_to`` (a taste that is gone). Verdicts
judge a whole clause ("take it", "what's the point") and decide a condition's stance.
"""

from __future__ import annotations

import re

Table = list[tuple[str, int, int, str]]

_EAT = r"(?:do|have|eat|drink|handle|tolerate|take|deal with|digest|chew|stomach|process|manage|sit through|cope with)"
_ORDER = r"(?:get|gets|order|orders|pick|picks|choose|chooses|book|books|take|takes|go for|goes for|ask for|asks for|have|has|want|grab|reserve|request|opt for|go with)"
_ADV = r"(?:just |really |so |pretty |absolutely |totally |truly |simply |quite |honestly |always |usually |the |a |an |such |a total |a complete |way |far |much )?"

BEFORE: Table = [
    (
        r"can't get enough of|can't live without|never say no to|never turn down|can never resist|can't resist|"
        r"nothing beats|nothing like|nothing better than|nothing tops|can't beat|you can't beat|no one does|nobody does|"
        r"sucker for|weakness for|can't say no to|live for|living for|nuts about|mad for|wild about|"
        r"die for|would kill for",
        1,
        3,
        "",
    ),
    (
        r"can't stand|can't bear|can't abide|can't " + _EAT + r"|(?:don't|do not|never|won't) (?:do|touch)",
        -1,
        3,
        "",
    ),
    (
        r"not (?:a|the) (?:big |huge )?fan of|not big on|not into|not keen on|not crazy about|not fond of|"
        r"(?:you )?can't be too careful (?:with|around|about)|(?:careful|wary|cautious) (?:with|of|around|about)|"
        r"watch out for|keep an eye on",
        -1,
        3,
        "",
    ),
    (
        r"(?:big |huge |massive )?fan of|obsessed with|hooked on|partial to|fond of|keen on|crazy about|into|all about|"
        r"mad about|big on|raving about|rave about|swears by",
        1,
        2,
        "",
    ),
    (
        r"lov(?:e|es|ed|ing)|adore[sd]?|prefer(?:s|red|ring)?|favou?rite|crav(?:e|es|ed|ing)|swear by|my go[- ]to",
        1,
        3,
        "",
    ),
    (r"(?:always|usually|normally|typically|generally|often|mostly|every time i) " + _ORDER, 1, 3, "habit"),
    (r"(?:always|usually|normally|typically|generally|mostly)", 1, 2, "habit"),
    (
        r"enjoy(?:s|ed|ing)?|appreciate[sd]?|(?:go|going|goes) (?:for|with)|opt(?:ing|s)? for|stick(?:s|ing)? (?:with|to)|happy with|rather (?:have|get|go with|do)",
        1,
        2,
        "",
    ),
    (
        r"(?:i|we|i'd|we'd|do|don't|doesn't|didn't|never|would|really|also|still|just|kinda|generally|actually|totally|definitely|truly|quite) (?:really |also |still |just |totally |definitely |quite |generally |actually )?lik(?:e|ed|es)|likes|liked",
        1,
        2,
        "",
    ),
    (r"eat|eats|drink|drinks|touch|consume|fly|flies", 1, 2, ""),
    (
        r"switch(?:ed|ing)? (?:over )?to|chang(?:ed|ing) (?:over )?to|mov(?:ed|ing) (?:over )?to|convert(?:ed)? to|gone|went|bec(?:o|a)me|turned|i'm now|now(?: an?)?|these days|nowadays",
        1,
        2,
        "update",
    ),
    (r"i'd like|i would like|i want|i wanted|i need|we want|we need|want|need|would love", 1, 2, "request"),
    (
        r"(?:should|must|needs? to|has to|have to|ought to|better) be",
        1,
        2,
        "",
    ),
    (
        r"keep(?: it| them| things| everything| (?:your|my|the) \w+)?|stick to|use|write(?: it| them)?|"
        r"(?:i|we) (?:take|drink|have|get|order) (?:my|mine|it|them)(?: \w+)?",
        1,
        2,
        "request",
    ),
    (
        r"make (?:it|mine|that|them|this|everything)|give me|get me|grab me|i'll (?:have|take|get|do|go with)|can i (?:get|have)|could i (?:get|have)|add|with|extra|more|only",
        1,
        1,
        "request",
    ),
    (r"i'm(?: an?)?|i am(?: an?)?|we're(?: an?)?", 1, 1, "weak"),
    (r"i meant|i mean|i asked for|i said|i'd asked for|i told you", 1, 2, ""),
    (
        r"hat(?:e|es|ed|ing)|dislik(?:e|es|ed)|detest(?:s|ed)?|loath(?:e|es|ed)|despis(?:e|es|ed)|abhor",
        -1,
        3,
        "",
    ),
    (
        r"avoid(?:s|ed|ing)?|allergic to|intolerant (?:to|of)|sensitive to|stay(?:ing)? away from|steer(?:ing)? clear of|keep away from|react(?:s)? badly to",
        -1,
        3,
        "",
    ),
    (
        r"cut(?:ting)? out|cut(?:ting)? back on|cut(?:ting)? down on|giv(?:e|en|ing) up|gave up|quit(?:ting)?|stopp?(?:ed|ing)? (?:eating|drinking|having|ordering|using|doing|taking|booking)|stop",
        -1,
        3,
        "update",
    ),
    (
        r"sick of|tired of|done with|fed up with|bored of|bored with|off of|i'm off|so over|i'm over",
        -1,
        2,
        "update",
    ),
    (
        r"skip(?:ping)?(?: the)?|hold the|drop the|lose the|ditch the|remove the|spare me|pass on|hold off on|minus|without|sans",
        -1,
        3,
        "",
    ),
    (
        r"no more|not anymore|never again|anything but|nothing|none of|zero|no|not|never|non|isn't|aren't|wasn't|weren't",
        -1,
        2,
        "",
    ),
    (r"ugh|yuck|eww|ew|meh|blah|urgh|nobody|no one", -1, 1, ""),
    (r"instead of|rather than|in place of|over(?! to\b)", -1, 1, "alt"),  # "gone over to X": to it
    (r"too|less|fewer|a little less", -1, 2, "exact"),
    (
        r"don't mind|do not mind|doesn't matter|fine with|ok with|okay with|alright with|can live with|tolerate|no preference|either way|either",
        0,
        2,
        "",
    ),
    (
        r"used to (?:love|like|enjoy|prefer|want|get|order|have|eat|drink|go for|go with|pick|choose|book|fly|use|take)|used to be into",
        0,
        3,
        "update used_to",
    ),
]
AFTER: Table = [
    (
        rf"(?:is|are|was|were|'s) {_ADV}(?:my |the )?(?:favou?rite|go[- ]to|thing|jam|vibe|style|kind of thing|cup of tea|best|great|perfect|ideal|amazing|a must|essential|non[- ]negotiable|better|the way to go|the one|heaven|bliss|a winner|a lifesaver)",
        1,
        3,
        "",
    ),
    (
        r"all the way(?! (?:to|through|from|up|down|back|over|across|home|there|here)\b)|every time|every single time|hits the spot|rules|rocks|works best|work best|suits me|please|for me please|i love|love it|love them|better|the better|for the win|ftw|any day|all day|"
        r"or nothing|or bust|the happier i am|the happier|the merrier|it is(?=\s*(?:[.,!;]|$))",
        1,
        2,
        "",
    ),
    (
        r"(?:and )?(?:i )?(?:loved|liked|enjoyed|adored) (?:it|them|that|every bite)",
        1,
        2,
        "",
    ),
    (
        r"always(?=\s*(?:[.,!;]|$))|(?:kind of |sort of )?(?:person|type|girl|guy|gal)(?=\s*(?:[.,!;]|$|when|for|about|at|if|in))"
        r"|(?:works?|worked|working) (?:for me|for us|well|great|best)",
        1,
        2,
        "",
    ),
    (
        r"for me|for us|(?:is|are) what i (?:want|need|like)|all year(?: round)?|year round|every day|daily|all the time",
        1,
        1,
        "",
    ),
    (
        rf"(?:is|are|'s) {_ADV}(?:good|great|nice|fine by me|the way to go|my style|lovely|delicious|the best)",
        1,
        2,
        "",
    ),
    (r"from now on|going forward|from here on(?: out)?|these days|nowadays|for good", 1, 2, "update"),
    (r"as usual|like always|as always|like last time|same as always|same as usual", 1, 1, "habit"),
    (r"now|these days|nowadays|from here", 1, 1, "update"),
    (
        r"(?:wreck|destroy|ruin|exhaust|kill|hurt)s? (?:me|my \w+)|wipes? me out|(?:is|are) (?:hell|murder|torture) on",
        -1,
        2,
        "",
    ),
    (
        rf"(?:is|are|was|were|'s) {_ADV}(?:a no|out|off the table|off limits|the worst|awful|terrible|horrible|a nightmare|too much|overrated|annoying|not for me|not my thing|a mistake|bad|gross|a pain|rubbish|the pits|a dealbreaker|a deal breaker|unbearable)",
        -1,
        3,
        "",
    ),
    (
        r"(?:isn't|aren't|wasn't) (?:for me|my thing|my favou?rite|great|good|my cup of tea)|not for me|(?:doesn't|don't) agree with me|disagrees? with me|makes? me (?:sick|ill|nauseous|queasy|bloated)|upsets? my stomach|gives? me (?:a )?(?:headaches?|heartburn|the jitters|jitters|migraines?|anxiety|a stomach ache|hives|a rash)|(?:i )?react(?:s)? badly",
        -1,
        3,
        "",
    ),
    (r"not (?:great|good|ideal|my favou?rite|my thing|for me)", -1, 3, ""),
    (
        r"(?:is|are|was|were|feels?|seems?) (?:just |such |totally |a total |a complete )?(?:a )?(?:waste of (?:money|time)|"
        r"overpriced|not worth it|a rip[- ]?off|pointless|too (?:expensive|pricey|much))",
        -1,
        3,
        "",
    ),
    (
        r"sucks?|kills? me|drives? me (?:crazy|nuts|mad|insane|bananas|up the wall)|bothers? me|annoys? me|irritates? me|"
        r"bores? me|frustrates? me|gets? on my nerves|never again|not again|no thanks|no way|intolerant|gets old|"
        r"i can't stand|i hate|i avoid|is too|was too|ruins?|(?:and )?(?:i )?(?:hated|disliked|regretted) (?:it|them|that)|rubbish|"
        r"(?:is|are|was|were|'s) (?:such |a real |really )?(?:a struggle|a drag|a chore|a slog|hard work|painful|exhausting|draining|brutal|a killer)",
        -1,
        2,
        "",
    ),
    (
        r"(?:is|are|would be|will be|works|'s) (?:fine|ok|okay|alright|acceptable|tolerable|grand|good enough)|works too|in a pinch|at a push|if (?:needed|necessary|i have to)",
        0,
        2,
        "",
    ),
]
NEGATORS = re.compile(
    r"\b(?:don't|doesn't|didn't|never|not|no longer|isn't|aren't|wasn't|weren't|won't|wouldn't|hardly|barely|no)\b"
)
# A cue verb in the third person ("my cat loves", "Tom prefers"): someone else's taste.
THIRD_PERSON = re.compile(
    r"^(?:loves|hates|likes|prefers|adores|enjoys|avoids|dislikes|detests|loathes|despises|craves|wants|needs|"
    r"swears by|orders|gets|picks|chooses|books|takes|goes for|asks for|insists on|is (?:a )?(?:big )?fan of|"
    r"can't stand|is into|is all about|is obsessed with|is allergic to)\b"
)
# A whole clause's verdict on something just named (a condition, or "it" in "and loved it").
VERDICT_GOOD = re.compile(
    r"\b(?:take it|book it|grab it|get it|go for it|do it|yes please|i'm in|count me in|sign me up|i'll take it|"
    r"i'd take it|go ahead|even better|perfect|ideal|great|brilliant|a bonus|a plus|all the better|so much the better|"
    r"i'm happy|i'm sold|that's the one|win)\b"
)
VERDICT_BAD = re.compile(
    r"\b(?:what's the point|what is the point|why bother|forget it|don't bother|skip it|no thanks|pass|no deal|"
    r"count me out|not worth it|i'm out|no way|not interested|i won't|i'll pass|deal ?breaker|then no|nope|"
    r"not for me|i'm not)\b"
)

# Whole-turn cues: a correction, an update, a one-off, a yes or no to what the assistant said, and
# an assistant's claim about the user.
CORRECTION = re.compile(
    r"^(?:actually|correction|to clarify|i meant|i said|scratch that|wait|sorry,? i meant|let me correct|i misspoke|no,? i said|no,? i meant)\b"
    r"|\b(?:that's|that is) (?:wrong|not right|incorrect|not what i (?:said|asked|wanted))\b|\byou (?:got it wrong|misunderstood|mixed)"
    r"|\bi (?:told|said to) you\b|\bas i (?:said|told you)\b|\bi never said\b|\bactually\b"
    r"|\bi(?:'ve| have)? told you (?:before|already|twice|this)\b|\byou should (?:know|remember) (?:that|this)(?: by now)?\b"
)
UPDATE = re.compile(
    r"\b(?:anymore|no longer|from now on|going forward|these days|lately|nowadays|changed my mind|not anymore|"
    r"i'm now|i now|i've (?:gone|become|switched|started|stopped|quit|given up|cut out|decided)|recently (?:started|switched|stopped|became|went)|"
    r"switched|switching|converted|update your notes|for the record|make a note|note that|please note|remember that)\b"
)
ONE_OFF = re.compile(
    r"\bfor (?:my|a|our|his|her|their) (?:\w+ )?(?:friend|friends|wife|husband|partner|boyfriend|girlfriend|guest|guests|boss|"
    r"colleague|colleagues|coworker|coworkers|team|family|mom|mum|dad|mother|father|kids?|son|daughter|sister|brother|client|"
    r"neighbou?r|roommate|flatmate|date|visitors?|parents|in-laws|grandma|grandpa|baby|niece|nephew|aunt|uncle|cousin)\b"
    r"|\bfor (?:her|him|them)\b|\bas a (?:gift|present|surprise)\b|\bjust this (?:once|time)\b|\b(?:this time|once) only\b"
    r"|\bonly this (?:once|time)\b|\bone[- ]off\b|\bfor a change\b|\bspecial occasion\b|\bthis once\b|\bon behalf of\b"
    r"|\bfor the (?:party|office|team|guests|kids|event|meeting)\b|\bjust for (?:today|tonight)\b"
    r"|\b(?:as|for) a (?:treat|celebration|one[- ]time thing)\b|\btreat(?:ing)? (?:myself|ourselves)\b|\bfor once\b"
    r"|(?<!not )\bthis time\b(?! (?:of|last|next|round|around) )|\bit's (?:our|my|her|his) (?:anniversary|birthday)\b"
    r"|\b(?:got|get|getting|bought|buy|buying|ordered|order|ordering|grabbed|grab|booked|book|picked up|pick up|made|make)\s+"
    r"(?:her|him|them|my (?:friend|wife|husband|partner|mom|mum|dad|boss|colleague|sister|brother|son|daughter|guest)s?)\b"
)
AFFIRM = re.compile(
    r"^(?:yes|yep|yeah|yup|sure|exactly|correct|right|that's right|definitely|absolutely|of course|sounds good|perfect|great|"
    r"go ahead|do it|book it|order it|please do|that works|works for me|ok|okay|lovely|spot on|you got it)\b"
)
DENY = re.compile(
    r"^(?:(?:right|oh|well|hmm|um|erm|ok|okay|quick thing|btw|also|wait)[,:.]?\s+)*"
    r"(?:no|nope|nah|not really|not that|not again|ugh|please no|no thanks|no way|wrong|hmm,? no)\b"
    r"|\b(?:not (?:that|this|those|these|the \w+) again|something else|another (?:one|option)|change (?:it|that)|i'd rather not|"
    r"anything but|don't want (?:that|it|those|this)|hate (?:that|those|it|them)|not (?:that|this) one|the other one|never again|"
    r"no more of (?:those|that|these)|not what i (?:want|wanted|asked))\b"
)
# a verdict against doing again what was just told of ("went for the shared one ... never again"): a
# closed class of idioms with no object of their own
VERDICT = re.compile(
    r"\b(?:never again|not again|(?:never|not|won't be|will never be) (?:doing|trying|making) (?:that|it|this)"
    r"(?: mistake)? again|not worth it|never worth it|lesson (?:learned|learnt))\b"
)
CLAIM = re.compile(
    r"(?<!would )(?<!do )(?<!did )(?<!if )(?<!shall )(?<!could )(?<!should )(?<!will )(?<!what )(?<!which )(?<!how )"
    r"\byou(?:'re| are| have| always| usually| really| seem to| clearly| definitely)*\s+(?:\w+\s)?"
    r"(?:love|like|prefer|enjoy|hate|dislike|avoid|want|a fan of|into|always|usually|never|can't)\b"
    r"|\byour (?:favou?rite|usual|go[- ]to|preference)|\byou (?:said|mentioned|told me)\b"
)
