package chinasecurities

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/domain/ashare"
)

// SearchParams are the raw query parameters of GET /china/securities; an
// empty one is not given.
type SearchParams struct {
	Name, Code, Exchange, Board, Listed string
	Limit, Offset                       int
}

// SearchQuery is a validated search of the listings and its page.
type SearchQuery struct {
	Search        ashare.Search
	Limit, Offset int
}

// Page is one page of a search's listings, by code, and whether more
// match after it.
type Page struct {
	Securities []ashare.Security
	More       bool
	// RetrievedAt is the latest retrieval among the page's listings; zero
	// when the page is empty or no listing on it carries one.
	RetrievedAt time.Time
}

// maxNameLength bounds a searched name, in characters: the longest
// listing name is a few dozen.
const maxNameLength = 100

// ParseSearch validates the parameters: a malformed value is
// ErrValidation, naming the qualified code a vendor-form code means; a
// code and an exchange that name two exchanges are ErrInvalidRequest.
// They are read in order, so the first bad one is the one reported.
func ParseSearch(p SearchParams) (SearchQuery, error) {
	q := SearchQuery{Limit: p.Limit, Offset: p.Offset}
	for _, read := range []func(SearchParams, *ashare.Search) error{readName, readExchange, readCode, readBoard, readListed} {
		if err := read(p, &q.Search); err != nil {
			return q, err
		}
	}
	return q, nil
}

func readName(p SearchParams, s *ashare.Search) error {
	if p.Name == "" {
		return nil
	}
	if utf8.RuneCountInString(p.Name) > maxNameLength {
		return fmt.Errorf("%w: name is longer than %d characters", usecase.ErrValidation, maxNameLength)
	}
	if s.Name = ashare.NameKey(p.Name); s.Name == "" {
		return fmt.Errorf("%w: name holds only spaces", usecase.ErrValidation)
	}
	return nil
}

func readExchange(p SearchParams, s *ashare.Search) error {
	if p.Exchange == "" {
		return nil
	}
	e, ok := ashare.ParseExchange(p.Exchange)
	if !ok {
		return fmt.Errorf("%w: exchange %q is not one of SSE, SZSE, BSE", usecase.ErrValidation, p.Exchange)
	}
	s.Exchange = e
	return nil
}

// readCode reads the code prefix, after the exchange, which a qualified
// prefix must agree with.
func readCode(p SearchParams, s *ashare.Search) error {
	if p.Code == "" {
		return nil
	}
	e, digits, err := codePrefix(p.Code)
	switch {
	case err != nil:
		return err
	case e != "" && s.Exchange != "" && e != s.Exchange:
		return fmt.Errorf("%w: code %s is on %s but exchange is %s", usecase.ErrInvalidRequest, p.Code, e, s.Exchange)
	case e != "":
		s.Exchange = e
	}
	s.Digits = digits
	return nil
}

func readBoard(p SearchParams, s *ashare.Search) error {
	if p.Board == "" {
		return nil
	}
	b, ok := ashare.ParseBoard(p.Board)
	if !ok {
		return fmt.Errorf("%w: board %q is not one of main, star, chinext, bse", usecase.ErrValidation, p.Board)
	}
	s.Board = b
	return nil
}

func readListed(p SearchParams, s *ashare.Search) error {
	switch p.Listed {
	case "":
	case "true", "false":
		listed := p.Listed == "true"
		s.Listed = &listed
	default:
		return fmt.Errorf("%w: listed %q is not true or false", usecase.ErrValidation, p.Listed)
	}
	return nil
}

// codePrefix reads a code prefix: up to six digits (600), or an exchange,
// a dot and up to six digits (SSE.600, exchange case-insensitive). A
// whole code must be one ParseCode accepts, and anything else is refused
// naming the qualified code it stands for, if any (usecase.RefuseCode).
func codePrefix(raw string) (ashare.Exchange, string, error) {
	exch, digits, qualified := strings.Cut(raw, ".")
	if !qualified {
		exch, digits = "", raw
	}
	e, known := ashare.ParseExchange(exch)
	switch {
	case len(digits) > 6 || strings.Trim(digits, "0123456789") != "" || (qualified && !known) || (!qualified && digits == ""):
		return "", "", usecase.RefuseCode(raw, fmt.Errorf("code %q is not a prefix of six digits (600) or of an exchange-qualified code (SSE.600)", raw))
	case qualified && len(digits) == 6:
		if _, err := ashare.ParseCode(raw); err != nil {
			return "", "", usecase.RefuseCode(raw, err)
		}
	}
	if !qualified {
		e = ""
	}
	return e, digits, nil
}

// Search returns one page of the listings q matches, by code.
func (c *Service) Search(ctx context.Context, q SearchQuery) (Page, error) {
	secs, more, err := c.securities.SearchSecurities(ctx, q.Search, q.Offset, q.Limit)
	if err != nil {
		return Page{}, err
	}
	page := Page{Securities: secs, More: more}
	for _, s := range secs {
		if s.RetrievedAt.After(page.RetrievedAt) {
			page.RetrievedAt = s.RetrievedAt
		}
	}
	return page, nil
}
