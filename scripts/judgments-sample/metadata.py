#!/usr/bin/env python3
"""Writes the India judgments sample's metadata (JSON lines, the format
`quarry ingest india-judgments` reads) and text files from the research
copies of real judgments, for cmd/judgmentsample to tokenize.

Usage: metadata.py RESEARCH_DIR OUT_DIR

RESEARCH_DIR holds sc_law_ai_judgments.jsonl, hc_bombay_delhi_judgments.jsonl
and sc-pdfs/ (sampledata/README.md names their sources). Nothing is
inferred: every field is the research record's, transcribed from the
judgment's own caption, coram and date; roles follow the caption ("X v Y"
in a civil appeal is appellant v respondent; a writ petition's caption says
Petitioner and Respondent).
"""
import json
import os
import re
import sys

# The Supreme Court texts with a cause title (Law-AI/summarization).
# Archit.json is left out: it names claimants who are in no caption.
SC_FILES = ["Andhra_sugars.json", "Bhayana.json", "Commissioner_delhi.json", "Gwalior.json", "kalawati.json"]
# High Court orders and judgments, by line of the research file: clean
# captions, no postal addresses (line 9 has them), and no person named in
# the caption who is not a party (line 17: the petitioner acts "through"
# a named person).
HC_LINES = [1, 2, 3, 5, 6, 8, 11, 13, 14, 16, 20, 21, 22, 25, 30]

SUFFIX = re.compile(r"\s*(?:&|and)\s*(?:\(?\d+\)?\s*)?(?:ors?|others?|anr|another|etc)\.?\s*$", re.I)
# A deceased party's legal representatives: "Kalawati (d), through Lrs."
DECEASED = re.compile(r"\s*\(d\),? through Lrs\.?$", re.I)


def names(field):
    """Splits a caption's side into party names, without '& Ors.'."""
    out = []
    for part in (field or "").split(";"):
        part = re.sub(r"\(WP[^)]*\)", "", part).strip()
        part = SUFFIX.sub("", part).strip().rstrip(".,")
        if part and part != "—":
            out.append(part)
    return out


def judges(coram):
    coram = re.sub(r"\(per [^)]*\)", "", coram or "")
    coram = re.sub(r",?\s*(JJ|J|C\.J)\.?(?=\s*(&|$|,))", "", coram)
    return [j.strip(" ,.") for j in re.split(r"\s*&\s*|\s+and\s+", coram) if j.strip(" ,.")]


def sc_entries(research):
    for line in open(os.path.join(research, "sc_law_ai_judgments.jsonl"), encoding="utf-8"):
        r = json.loads(line)
        base = os.path.basename(r["source_path"])
        if base not in SC_FILES:
            continue
        appellant, respondent = r["title_as_printed"].split(" v ", 1)
        parties = [{"name": n, "role": "appellant"} for n in [DECEASED.sub("", SUFFIX.sub("", appellant).strip())]]
        parties += [{"name": n, "role": "respondent"} for n in [SUFFIX.sub("", respondent).strip()]]
        yield base.replace(".json", ".txt"), r["text"], {
            "court": "Supreme Court of India", "case_number": r["case_number"], "title": r["title_as_printed"],
            "parties": parties, "judges": judges(r["author_judge_as_printed"]), "decision_date": r["decision_date"],
            "citations": [], "language": r["language"],
        }


def pdf_entry(research):
    text = open(os.path.join(research, "sc-pdfs", "satish860_judgment.txt"), encoding="utf-8").read()
    yield "arcelor_mittal.txt", text, {
        "court": "Supreme Court of India", "case_number": "Civil Appeal No. 5700 of 2021",
        "title": "Arcelor Mittal Nippon Steel India Ltd. v Essar Bulk Terminal Ltd.",
        "parties": [{"name": "Arcelor Mittal Nippon Steel India Ltd.", "role": "appellant"},
                    {"name": "Arcelor Mittal Nippon Steel India Limited", "role": "appellant"},
                    {"name": "Essar Bulk Terminal Ltd.", "role": "respondent"},
                    {"name": "Essar Bulk Terminal Limited", "role": "respondent"}],
        "judges": ["Indira Banerjee", "J.K. Maheshwari"], "decision_date": "2021-09-14",
        "citations": ["LL 2021 SC 454"], "language": "en", "page_count": 38,
    }


def hc_entries(research):
    for line in open(os.path.join(research, "hc_bombay_delhi_judgments.jsonl"), encoding="utf-8"):
        r = json.loads(line)
        if r["source_line"] not in HC_LINES:
            continue
        cit = r.get("neutral_citation") or ""
        citations = [cit] if re.fullmatch(r"\d{4}:BHC-OS:\d+(-DB)?", cit) else []
        petitioners, respondents = names(r["petitioners"]), names(r["respondents"])
        title = " v ".join([r["petitioners"], r["respondents"]])
        yield r["cnr"] + ".txt", r["text"], {
            "court": r["court"], "case_number": r["case_number"], "title": title,
            "parties": [{"name": n, "role": "petitioner"} for n in petitioners] + [{"name": n, "role": "respondent"} for n in respondents],
            "judges": judges(r["bench"]), "decision_date": r["decision_date"], "citations": citations, "language": r["language"],
        }


def main(research, out):
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "metadata.jsonl"), "w", encoding="utf-8") as meta:
        for gen in (sc_entries, pdf_entry, hc_entries):
            for name, text, m in gen(research):
                m["text_file"] = name
                with open(os.path.join(out, name), "w", encoding="utf-8") as f:
                    f.write(text)
                meta.write(json.dumps(m, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
