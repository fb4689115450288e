"""Reading: what the user's own words say (clauses, cues, polarity, mentions, facts, replies, time) and the typed preference events made from them."""
