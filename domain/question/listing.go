package question

import (
	_ "embed"
	"regexp"
	"strings"
	"unicode"
)

// listingQuestions are the shapes of a listing question; each captures
// the listing named.
var listingQuestions = []*regexp.Regexp{
	regexp.MustCompile(`^when (?:was|were|did) (.+?) (?:first )?(?:get |become |go |get )?(?:list(?:ed)?|go public|went public|ipo(?:'d|ed)?|float(?:ed)?|debut(?:ed)?)(?: on (?:the )?(?:sse|szse|bse|shanghai stock exchange|shenzhen stock exchange|beijing stock exchange|star market|chinext|main board|a-share market))?$`),
	regexp.MustCompile(`^(?:what (?:is|was) )?(?:the )?(?:listing|ipo|list) date (?:of|for) (.+?)$`),
	regexp.MustCompile(`^(.+?)(?:'s)? (?:listing|ipo|list) date$`),
	regexp.MustCompile(`^(?:when did )?(.+?) (?:ipo|list)$`),
	regexp.MustCompile(`^(.+?)(?:是)?(?:什么时候|何时|哪天|哪一天|哪年|几时)上市(?:的)?$`),
	regexp.MustCompile(`^(.+?)的?上市(?:日期|时间)(?:是)?(?:什么|哪天|何时)?$`),
	regexp.MustCompile(`^(?:what (?:is|was|are) )?(?:the )?(?:stock|share|security|listing|a-share|exchange)? ?(?:code|ticker|symbol|ticker symbol)s? (?:of|for) (.+?)$`),
	regexp.MustCompile(`^(?:what (?:is|was) )?(.+?)(?:'s)? (?:stock|share|security|a-share|exchange) (?:code|ticker|symbol)$`),
	regexp.MustCompile(`^(?:on )?(?:which|what) (?:stock )?(?:exchange|market|board) (?:is|was|are|does) (.+?) (?:listed|traded|trade|list)(?: on| in| at)?$`),
	regexp.MustCompile(`^(.+?)的?(?:股票代码|证券代码|代码)(?:是)?(?:什么|多少)?$`),
	regexp.MustCompile(`^(.+?)在(?:哪个|哪家|哪一个|哪)?(?:证券)?交易所上市(?:的)?$`),
}

// ListingSubject returns what a listing question names ("贵州茅台",
// "600519.sh", "kweichow moutai"), normalized, and false when q is no
// listing question.
func ListingSubject(q string) (string, bool) {
	s := strings.TrimRight(Normalize(q), " ?.!。？")
	for _, re := range listingQuestions {
		if m := re.FindStringSubmatch(s); m != nil {
			subject := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(m[1]), "the "))
			return subject, subject != ""
		}
	}
	return "", false
}

//go:embed english_names.tsv
var englishTable string

// englishNames maps an English name's key (NameKey) to the listings that
// have it, exchange-qualified.
var englishNames = map[string][]string{}

func init() {
	for _, line := range strings.Split(englishTable, "\n") {
		code, name, ok := strings.Cut(line, "\t")
		if !ok || strings.HasPrefix(line, "#") {
			continue
		}
		for _, k := range []string{NameKey(name), NameKey(BareName(name))} {
			if k != "" && !contains(englishNames[k], code) {
				englishNames[k] = append(englishNames[k], code)
			}
		}
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// corporateSuffix is the legal form ending an English company name.
var corporateSuffix = regexp.MustCompile(`(?i)[\s,.]*(?:co\.?,?\s*ltd\.?|company\s+limited|co\.?\s*limited|corporation\s+limited|corp\.?,?\s*ltd\.?|limited|ltd\.?|incorporated|inc\.?|corporation|corp\.?|group)[\s,.]*$`)

// BareName is a company name without its legal form ("Microsoft Corp"
// is "Microsoft", "Ping An Bank Co., Ltd." is "Ping An Bank").
func BareName(name string) string {
	for {
		s := corporateSuffix.ReplaceAllString(name, "")
		if s == name {
			return s
		}
		name = s
	}
}

// NameKey is the form an English name is matched in: NFKC, lower case,
// every run of characters that are neither letters nor digits one space.
func NameKey(name string) string {
	return strings.Join(strings.FieldsFunc(Normalize(name), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}), " ")
}

// EnglishListings returns the listings an English name names: its whole
// name as the exchange lists it, or that name without its legal form
// ("Ping An Bank"). A name that two listings share names both.
func EnglishListings(name string) []string {
	if k := NameKey(name); k != "" {
		if codes, ok := englishNames[k]; ok {
			return codes
		}
		return englishNames[NameKey(BareName(name))]
	}
	return nil
}
