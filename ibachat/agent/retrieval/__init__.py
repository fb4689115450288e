"""Deep Retrieval: facet sub-queries, relevance, candidates from the conversation, salience."""
