-- Full-text search shared by every node (ports.SectionIndex and
-- ports.JudgmentIndex): one row a document, its text as indexed (NUL and
-- invalid UTF-8 replaced byte for byte, so offsets into it are offsets
-- into the document's text), its filters, and its English tsvector,
-- generated from the text and indexed with GIN. The text is kept because
-- the passage of a hit is found in it; it is derived data, rebuilt from
-- the document store when dropped.
CREATE TABLE search_sections (
    id     text PRIMARY KEY,
    ticker text NOT NULL,
    cik    text NOT NULL,
    form   text NOT NULL,
    item   text NOT NULL,
    filed  text NOT NULL, -- YYYY-MM-DD, ordered as text
    body   text NOT NULL,
    tsv    tsvector GENERATED ALWAYS AS (to_tsvector('english', body)) STORED
);
CREATE INDEX search_sections_tsv ON search_sections USING gin (tsv);
-- A search of one filer's sections ANDs these with the GIN index instead
-- of ranking every section that holds a common word.
CREATE INDEX search_sections_cik ON search_sections (cik);
CREATE INDEX search_sections_ticker ON search_sections (ticker);

CREATE TABLE search_judgments (
    id      text PRIMARY KEY,
    court   text NOT NULL, -- lower case, matched exactly
    decided text NOT NULL, -- YYYY-MM-DD, ordered as text
    body    text NOT NULL,
    tsv     tsvector GENERATED ALWAYS AS (to_tsvector('english', body)) STORED
);
CREATE INDEX search_judgments_tsv ON search_judgments USING gin (tsv);

-- What each index's use case has read of its store (SaveCheckpoint), one
-- row an index, shared by every node.
CREATE TABLE search_checkpoints (
    index_name text PRIMARY KEY,
    checkpoint bytea NOT NULL,
    saved_at   timestamptz NOT NULL DEFAULT now()
);
