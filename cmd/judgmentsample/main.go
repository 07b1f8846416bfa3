// Command judgmentsample assembles the India judgments sample: it reads
// metadata files and their text files as `quarry ingest india_judgments`
// does, tokenizes every judgment, and writes the tokenized judgments as
// JSON lines, which is all the repository ships.
//
//	go run ./cmd/judgmentsample -o sampledata/india_judgments/judgments.jsonl META.jsonl...
//
// With -retokenize it reads an already tokenized file instead and brings
// every judgment in it up to the current rules (judgment.Retokenize: the
// persons the text names as litigants, PANs disguised in it), keeping the
// tokens it holds; that is how the bundled sample, whose originals are
// not kept, was brought up to pii.Litigants:
//
//	go run ./cmd/judgmentsample -retokenize sampledata/india_judgments/judgments.jsonl -o sampledata/india_judgments/judgments.jsonl
//
// Retokenizing only adds tokens. With -before, an earlier stored form of
// the same judgments that holds fewer tokens (the sample before
// pii.Litigants), every judgment is rebuilt from that form by the current
// rules instead: what the file tokenized that the rules now leave in
// clear, such as a judge's given name, is in clear again, and each name
// both tokenize at the same place keeps the file's token:
//
//	go run ./cmd/judgmentsample -retokenize sampledata/india_judgments/judgments.jsonl -before domain/judgment/testdata/sample-before-persons.jsonl -o sampledata/india_judgments/judgments.jsonl
//
// The tokens are derived with QUARRY_VAULT_KEY when it is set, so that an
// operator's vault, written by `quarry ingest` from the same files with
// the same key, holds their mapping. Without it a fresh random key is used
// and forgotten: no mapping of the sample's tokens exists anywhere, and
// nobody can test a guessed name against them. The bundled sample was
// assembled that way.
package main

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/quarrydata/quarry/adapters/judgmentfiles"
	"github.com/quarrydata/quarry/domain/judgment"
	"github.com/quarrydata/quarry/domain/pii"
)

func main() {
	out := flag.String("o", "", "the tokenized JSON lines file to write")
	retrieved := flag.String("retrieved", "", "when the sources were retrieved, YYYY-MM-DD")
	retokenize := flag.String("retokenize", "", "a tokenized JSON lines file to bring up to the current rules, instead of metadata files")
	before := flag.String("before", "", "with -retokenize, an earlier tokenized form of the same judgments to rebuild them from")
	flag.Parse()
	var err error
	if *retokenize != "" {
		err = runRetokenize(*out, *retokenize, *before)
	} else {
		err = run(*out, *retrieved, flag.Args())
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "judgmentsample:", err)
		os.Exit(1)
	}
}

func run(out, retrieved string, metaFiles []string) error {
	if out == "" || len(metaFiles) == 0 {
		return fmt.Errorf("usage: judgmentsample -o OUT -retrieved YYYY-MM-DD META [META ...]")
	}
	at, err := time.Parse(time.DateOnly, retrieved)
	if err != nil {
		return fmt.Errorf("-retrieved: %w", err)
	}
	key, err := sampleKey()
	if err != nil {
		return err
	}
	var js []judgment.Judgment
	for _, meta := range metaFiles {
		f, err := judgmentfiles.Open(meta, os.ReadFile)
		if err != nil {
			return err
		}
		for s, err := range f.Judgments(at) {
			if err != nil {
				return err
			}
			j, _, err := judgment.Tokenize(key, s)
			if err != nil {
				return fmt.Errorf("%s %s: %w", meta, s.CaseNumber, err)
			}
			if err := checkNoParty(j, s); err != nil {
				return err
			}
			js = append(js, j)
		}
	}
	slices.SortFunc(js, func(a, b judgment.Judgment) int { return strings.Compare(a.ID, b.ID) })
	var buf bytes.Buffer
	if err := judgmentfiles.WriteTokenized(&buf, js); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "%d judgments tokenized into %s\n", len(js), out)
	return os.WriteFile(out, buf.Bytes(), 0o644)
}

// runRetokenize rewrites the tokenized file in as out, every judgment
// retokenized, or rebuilt from its form in the file before when one is
// given.
func runRetokenize(out, in, before string) error {
	if out == "" {
		return fmt.Errorf("usage: judgmentsample -retokenize IN [-before EARLIER] -o OUT")
	}
	js, err := readTokenized(in)
	if err != nil {
		return err
	}
	earlier := map[string]judgment.Judgment{}
	if before != "" {
		bs, err := readTokenized(before)
		if err != nil {
			return err
		}
		for _, b := range bs {
			earlier[b.ID] = b
		}
	}
	key, err := sampleKey()
	if err != nil {
		return err
	}
	added := 0
	for i, j := range js {
		if b, ok := earlier[j.ID]; ok {
			js[i], err = rebuild(key, j, b)
		} else if before != "" {
			err = fmt.Errorf("not in %s", before)
		} else {
			js[i], _, err = judgment.Retokenize(key, j)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", j.ID, err)
		}
		if !js[i].Equal(j) {
			added++
		}
	}
	var buf bytes.Buffer
	if err := judgmentfiles.WriteTokenized(&buf, js); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "%d judgments retokenized into %s, %d changed\n", len(js), out, added)
	return os.WriteFile(out, buf.Bytes(), 0o644)
}

// readTokenized reads a tokenized JSON lines file.
func readTokenized(path string) ([]judgment.Judgment, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return judgmentfiles.ParseTokenized(path, data)
}

// sampleKey is QUARRY_VAULT_KEY, or a random key that is never written.
func sampleKey() (pii.Key, error) {
	secret := make([]byte, pii.MinKeyBytes)
	if raw := os.Getenv("QUARRY_VAULT_KEY"); raw != "" {
		b, err := hex.DecodeString(strings.TrimSpace(raw))
		if err != nil {
			return pii.Key{}, fmt.Errorf("QUARRY_VAULT_KEY: want hex")
		}
		secret = b
	} else if _, err := rand.Read(secret); err != nil {
		return pii.Key{}, err
	}
	return pii.NewKey(secret)
}

// checkNoParty refuses a judgment in whose stored fields a party's name
// survived tokenization, whole.
func checkNoParty(j judgment.Judgment, s judgment.Source) error {
	stored := strings.ToLower(strings.Join(append([]string{j.Title, j.CaseNumber, j.Text}, j.Citations...), "\n"))
	for _, p := range s.Parties {
		if strings.Contains(stored, strings.ToLower(p.Name)) {
			return fmt.Errorf("%s: the party %q survives tokenization", s.CaseNumber, p.Name)
		}
	}
	return nil
}
