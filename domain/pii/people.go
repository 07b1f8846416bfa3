package pii

import (
	"regexp"
	"strings"
	"unicode"
)

// The rules by which a person is found without a role of the parties':
// by a relation, a witness's number, an age, an alias, or by a name that
// is no English word (generic).
var (
	// relationPattern is a word for a relative, a person a case touches
	// (a victim, a witness, an officer) or a legal heir, perhaps before
	// "namely" or "of", after which a name follows:
	// "her brother-in-law Suresh", "the prosecutrix, namely, Kumari X",
	// "his guardian and next friend Y", "LRs Z", "PW-3 Dr. A".
	relationPattern = regexp.MustCompile(`(?i)^(?:` + relationWords +
		`)(?:[ \t]*-[ \t]*in[ \t]*-[ \t]*law)?(?:s|es)?\b\.?(?:[ \t]+and[ \t]+next[ \t]+friend)?(?:[ \t]*(?:nos?\.?[ \t]*)?-?[ \t]*\d+)?(?:[ \t]*,)?(?:[ \t]*(?:namely|viz\.?|i\.e\.?|by[ \t]+name|named|called)\b[ \t]*,?)?(?:[ \t]+of(?:[ \t]+the)?(?:[ \t]+late)?\b)?[ \t]*[:-]?[ \t]*\(?\n?[ \t]*`)
	witnessPattern = regexp.MustCompile(`(?i)^(?:p\.?[ \t]?w|d\.?[ \t]?w|c\.?[ \t]?w|r\.?[ \t]?w|a)\.?[ \t]*-?[ \t]*\d+\b[ \t]*[,:-]?[ \t]*\n?[ \t]*`)
	// afterNamePattern follows a person's name: a witness's number, an
	// age, "(minor)", an alias, or ", the husband of".
	afterNamePattern = regexp.MustCompile(`(?i)^(?:[ \t]*\(?[ \t]*(?:p\.?[ \t]?w|d\.?[ \t]?w|c\.?[ \t]?w|a)\.?[ \t]*-?[ \t]*\d+\b|[ \t]*,?[ \t]*\(?[ \t]*(?:aged|age|minor|since[ \t]+deceased|deceased|dead|prosecutrix|victim|\d{1,2}[ \t]*(?:years|yrs))\b|[ \t]*,[ \t]*(?:the[ \t]+|his[ \t]+|her[ \t]+|their[ \t]+)?(?:\pL+'s[ \t]+)?(?:` + kinWords + `|cousin|surety|suppliers?|friend|neighbou?r)(?:[ \t]*-[ \t]*in[ \t]*-[ \t]*law)?s?\b|[ \t]*,[ \t]*(?:the[ \t]+)?(?:` + officialWords + `)\b|[ \t]*(?:,|\.{2,}|…)?[ \t]*(?:petitioner|respondent|appellant|complainant|plaintiff|defendant|applicant|claimant|opposite[ \t]+party)s?\b(?:[ \t]*no)?)`)
	aliasPattern     = regexp.MustCompile(`(?i)^(?:[ \t]*(?:(?:alias|urf|aka)\b|a\.k\.a\.?)[ \t]*|[ \t]*@[ \t]*)`)
	precedentAround  = regexp.MustCompile(`(?i)^(?:[ \t]*(?:&|and)[ \t]+(?:ors|anr|others|another)\.?)?[ \t]*(?:v\.|vs\.?|v/s\.?|versus|v)[ \t\n]|^(?:'s|’s)?[ \t]+case[ \t]*(?:\(supra\)|,?[ \t]*(?:\(\d{4}\)|\[\d{4}\]|AIR|\d{4}[ \t]+\(|reported))|^[ \t]*\(supra\)|^[ \t]*,[ \t]*(?:\(\d{4}\)|\[\d{4}\])[ \t]*(?:\d{1,3}[ \t]+)?(?:SCC|SCR|SCALE|JT|ILR|AIR|Cri|CrLJ|DLT|Supp)\b|^[ \t]*,[ \t]*AIR[ \t]+\d{4}\b`)
	precedentBefore  = regexp.MustCompile(`(?i)(?:\bv\.|\bvs\.?|\bv/s\.?|\bversus|\bv)[ \t\n]*$`)
	relationFirst    = setOf(strings.NewReplacer("|", " ", `l\.rs`, "l", " by", "").Replace(relationWords))
	witnessFirst     = setOf(`p pw d dw c cw r rw a`)
)

// kinWords name a person by kinship, after a name and a comma: "Ramesh,
// the husband of".
const kinWords = `husband|wife|son|daughter|brother|sister|mother|father|uncle|aunt|nephew|niece|cousin|grandson|granddaughter|grandfather|grandmother|widow|widower|guardian|heir|stepmother|stepfather|stepson|stepdaughter`

// officialWords name a person by the office in which a case met them,
// after the name and a comma: "Ram Lal, Patwari".
const officialWords = `patwari|lekhpal|kanungo|tehsildar|naib[ \t]+tehsildar|sarpanch|mukhiya|pradhan|stenographer|typist|scribe|peon|clerk|cashier|accountant|nurse|compounder|conductor|watchman|chowkidar|guard|constable|head[ \t]+constable|sub-inspector|inspector|investigating[ \t]+officer|station[ \t]+house[ \t]+officer|medical[ \t]+officer|doctor|manager|branch[ \t]+manager|agent|broker|contractor|supervisor|driver|owner|notary|oath[ \t]+commissioner|process[ \t]+server|bailiff|postman`

// indianKinWords are kin in Hindi, Urdu, Tamil and other Indian
// languages as judgments write them in Latin letters ("her nanad Pinky",
// "his mama Ramu").
const indianKinWords = `nanad|nanand|nanandi|devar|dewar|jeth|jethani|devrani|bhabhi|bhabi|bhauji|bhaujai|saala|sala|saali|sali|jija|jijaji|mausi|mausa|mama|mami|chacha|chachi|chachu|tau|tai|taiji|bua|phupha|phuphi|phua|nana|nani|dada|dadi|didi|bhaiya|bhaiyya|bhai|behen|bahen|amma|appa|anna|akka|thambi|thangai|chithi|chithappa|periyappa|periyamma|maama|athai|ammi|abba|bhanja|bhanji|bhatija|bhatiji|bhateeja|samdhi|samdhan|sasur|saas|bahu|damad|jamai|pota|poti|nati|natin`

// closeWords are the relations after which any capitalised name is a
// person's: kin, heirs, a victim, a minor, a witness, a surety.
var closeWords = setOf(strings.ReplaceAll(kinWords+"|"+indianKinWords, "|", " ") + ` next friend heirs lrs l representative representatives minor child girl boy prosecutrix
	survivor victim deceased injured witness eyewitness eye-witness informant surety cousin fiance fiancee paramour friend neighbour neighbor`)

// closeRelation reports whether a relationPattern match names a close relation.
func closeRelation(match string) bool {
	w := strings.Fields(strings.ToLower(match))
	return len(w) > 0 && closeWords[strings.TrimRight(w[0], ".,:-")]
}

// relationWords name a person by a relation to the case or to another
// person: kin, heirs, a victim, a witness, an officer who acted in it.
const relationWords = indianKinWords + `|husband|wife|son|daughter|brother|sister|mother|father|uncle|aunt|nephew|niece|cousin|grandson|granddaughter|grandfather|grandmother|grandchild|widow|widower|guardian|next friend|heir|lrs|l\.rs|representative|stepmother|stepfather|stepson|stepdaughter|fiance|fiancee|paramour|minor|child|girl|boy|prosecutrix|survivor|victim|deceased|injured|witness|eyewitness|eye-witness|informant|employer|employee|landlord|landlady|tenant|servant|maid|driver|neighbour|neighbor|owner|friend|co-accused|accomplice|officer|inspector|sub-inspector|constable|head constable|doctor|surgeon|sarpanch|tehsildar|patwari|lekhpal|kanungo|clerk|stenographer|typist|scribe|peon|nurse|cashier|accountant|watchman|chowkidar|agent|broker|contractor|notary|manager|student|pupil|patient|teacher|worker|workman|labourer|occupant|passenger|pedestrian|rider|cyclist|supplier|vendor|vendee|purchaser|buyer|seller|dealer|distributor|customer|borrower|guarantor|director|transferee|transferor|lessee|lessor|licensee|allottee|assessee|depositor|drawer|payee|nominee|beneficiary|donor|donee|testator|testatrix|legatee|executor|mortgagor|mortgagee|surety|consignee|shareholder|addressee|sender|signatory|attesting witness|scribe|domestic help|house help|one|substituted by|substituted`

// relations adds the names after a relation or a witness's number.
func (d *detector) relations() {
	for _, re := range []struct {
		p     *regexp.Regexp
		first map[string]bool
	}{{relationPattern, relationFirst}, {witnessPattern, witnessFirst}} {
		for _, m := range d.findAll(re.p, re.first) {
			if forBefore.MatchString(d.text[max(0, m[0]-12):m[0]]) {
				continue // "counsel for the victim"
			}
			d.personListAt(m[1], re.p == witnessPattern || closeRelation(d.text[m[0]:m[1]]))
		}
	}
}

// personListAt adds the names listed at i, each perhaps after an
// honorific, as listAt does, and also a name of initials only: a person a
// judgment names by a relation is no counsel. After a close relation (kin,
// a victim, a witness: strong) a name that is one English word is a name
// too ("her cousin Pinky"); after another it needs a word that is none.
func (d *detector) personListAt(i int, strong bool) {
	for range 8 {
		start := i
		if m := honorificPattern.FindStringIndex(d.text[i:min(len(d.text), i+14)]); m != nil {
			i += m[1]
		}
		n, end := d.nameAt(i)
		if n == nil {
			n, end = initialsAt(d.text, i)
		}
		if n == nil && strong && i > start {
			n, end = honorificAsName(d.text, start, i)
		}
		if n == nil {
			n, end = lowerNameAt(d.text, i, strong)
		}
		if n == nil || d.counselOrJudge(start, end) || d.precedent(start, end) {
			return
		}
		if strong || i > start || foreign(n) != nil || appositive(d.text, start, end) {
			d.addParty(n) // "her cousin Pinky", not "the Director of Income Tax"
		}
		glue := listGlue.FindStringIndex(d.text[end:min(len(d.text), end+12)])
		if glue == nil {
			return
		}
		i = end + glue[1]
	}
}

// appositive reports whether the name at text[start:end] is set off by
// commas and followed by "who", as a person is named after a relation:
// "a co-passenger, Hope, who is absconding".
func appositive(text string, start, end int) bool {
	before := strings.TrimRight(text[max(0, start-3):start], " \t")
	return strings.HasSuffix(before, ",") && whoAfter.MatchString(text[end:min(len(text), end+12)])
}

var whoAfter = regexp.MustCompile(`^,[ \t]*(?:who|whom|whose)\b`)

// lowerNameAt reads a name written in lower case at text[i], after a
// relation: one to four words, none an English word nor a word of courts,
// kin or procedure, that end at punctuation or, after a close relation
// (strong), at an English word ("his elder brother ramu yadav has
// threatened"); after another relation the name must stand between commas
// ("The Assistant Manager, nagaraj desai, who").
func lowerNameAt(text string, i int, strong bool) ([]string, int) {
	commaBefore := strings.HasSuffix(strings.TrimRight(text[max(0, i-3):i], " \t"), ",")
	var words []string
	end := i
	for pos := skipBlanks(text, i, len(text)); len(words) < 4; {
		j := pos
		for j < len(text) && text[j] >= 'a' && text[j] <= 'z' {
			j++
		}
		w := text[pos:j]
		if len(w) < 2 || j < len(text) && (nameRune(rune(text[j])) && text[j] != '.' || isASCIIDigit(rune(text[j]))) || !lowerNameWord(w) {
			break
		}
		words = append(words, w)
		end = j
		if j >= len(text) || text[j] != ' ' {
			break
		}
		pos = j + 1
	}
	if len(words) == 0 || len(words) == 1 && len(words[0]) < 4 {
		return nil, 0
	}
	rest := text[end:min(len(text), end+2)]
	punct := rest != "" && strings.IndexByte(",;.)", rest[0]) >= 0
	if !strong && !(commaBefore && strings.HasPrefix(rest, ",")) || strong && !punct && !strings.HasPrefix(rest, " ") {
		return nil, 0
	}
	return words, end
}

// lowerNameWord reports whether the lower-case word w may be a word of a
// name written in lower case: no English word, no word of courts, kin or
// procedure.
func lowerNameWord(w string) bool {
	return !isEnglish(w) && !notNameWords[w] && !judgmentAbbreviations[w] && !closeWords[w] && !relationFirst[w] && !markerAlone[w]
}

// honorificAsName returns the word of text[start:i], an honorific after a
// close relation with no name after it, when it is the name: "the
// appellant's sister, Selvi, was not examined", "her daughter Baby".
func honorificAsName(text string, start, i int) ([]string, int) {
	w := strings.TrimRight(strings.TrimSpace(text[start:i]), ".")
	rest := strings.TrimLeft(text[i:], " \t")
	if len(w) < 4 || !startsCapital(w, 0) || rest != "" && !strings.ContainsAny(rest[:1], ",;:.)") {
		return nil, 0
	}
	return []string{w}, start + strings.Index(text[start:], w) + len(w)
}

// markedNames adds the names before what follows only a person's name (a
// witness's number, an age, "(minor)", a relation) and the names on both
// sides of an alias.
func (d *detector) markedNames() {
	for i := 0; i < len(d.text); i++ {
		c := d.text[i]
		if c != ' ' && c != '\t' && c != ',' && c != '(' && c != '@' || i > 0 && !nameRune(rune(d.text[i-1])) && c != '@' && d.text[i-1] != ')' || !markerNext(d.text, i) {
			continue
		}
		window := d.text[i:min(len(d.text), i+60)]
		if m := aliasPattern.FindStringIndex(window); m != nil {
			left := d.nameBefore(i)
			right, end := d.nameAt(i + m[1])
			if right != nil && d.precedent(i-len(strings.Join(left, " ")), end) {
				i += m[1] - 1
				continue // "Sher Singh @ Partapa v. State of Haryana" is a cited case
			}
			if left != nil {
				d.addParty(left)
			}
			if right != nil {
				d.addParty(right)
			} else if w := aliasWord(d.text, i+m[1]); w != "" {
				d.add([]string{w})
			} else if w := aliasEnglish(d.text, i+m[1]); left != nil && w != "" {
				d.add([]string{w})
			}
			i += m[1] - 1
			continue
		}
		if afterNamePattern.MatchString(window) || testimonyAfter.MatchString(window) {
			if n := d.nameBefore(i); n != nil && !d.counselOrJudge(i, i) && (len(n) > 1 || !isEnglish(strings.TrimSuffix(n[0], ".")) || kinAfter.MatchString(window)) {
				d.addParty(n) // "Sat Pal, to the same effect", not "Second respondent"
			}
		}
	}
}

// kinAfter follows a name with a close relation after a comma, after
// which a name that is one English word is a name too ("Prince, the
// petitioner's cousin").
var kinAfter = regexp.MustCompile(`(?i)^[ \t]*,[ \t]*(?:the[ \t]+|his[ \t]+|her[ \t]+|their[ \t]+)?(?:\pL+'s[ \t]+)?(?:` + kinWords + `|cousin|surety)\b`)

// testimonyAfter follows a person's name in what a witness said or did:
// "X deposed", "Y, to the same effect".
var testimonyAfter = regexp.MustCompile(`(?i)^[ \t]*,?[ \t]*(?:deposed|stated|testified|admitted|denied|identified|supported|narrated|to[ \t]+the[ \t]+same[ \t]+effect|was[ \t]+examined|was[ \t]+cross-examined)\b`)

// namedAs adds the names a text gives after "known as", "pet name", "nick
// name", "referred to by her family as" (an alias, perhaps one word in
// quotes or in lower case) and after
// what ties a document to a person ("addressed to", "written by", "signed
// by", "sent to", "letter of"): "a letter addressed to Suresh".
func (d *detector) namedAs() {
	for _, m := range d.findAll(namedAsPattern, namedAsFirst) {
		i := m[1]
		if n := tradeNameAt(d.text, m[0], i); n != nil {
			d.addParty(n) // "trading as \"Thakur Fruit Company\""
			continue
		}
		if h := honorificPattern.FindStringIndex(d.text[i:min(len(d.text), i+14)]); h != nil {
			i += h[1] // "signed by Ms. Tanvi Rastogi"
		}
		if n, _ := d.nameAt(i); n != nil {
			if len(n) > 1 || !isEnglish(strings.TrimSuffix(n[0], ".")) || aliasLike(d.text[m[0]:m[1]]) {
				d.addParty(n) // "registered in the name of Raja Ram"
			}
			continue
		}
		if aliasLike(d.text[m[0]:m[1]]) {
			if w := aliasWord(d.text, i); w != "" {
				d.add([]string{w})
			}
		}
	}
}

// tradeNameAt returns the name a proprietor trades under, in quotes or
// in capitalised words, after a namedAsPattern match text[start:i] that
// gives one ("trading as", "in the name and style of"): a proprietorship
// is its proprietor under another name, so the name is a person's.
func tradeNameAt(text string, start, i int) []string {
	if !tradeLike.MatchString(text[start:i]) {
		return nil
	}
	m := tradeNamePattern.FindStringSubmatch(text[i:min(len(text), i+80)])
	if m == nil {
		return nil
	}
	return foreign(strings.Fields(m[1]))
}

var (
	tradeLike        = regexp.MustCompile(`(?i)trading|business|style`)
	tradeNamePattern = regexp.MustCompile(`^["'“‘]?(?:M/[sS]\.?[ \t]+)?(\p{Lu}[\pL.&'-]*(?:[ \t]+(?:\p{Lu}[\pL.&'-]*|&|and|of))*?)(?:["'”’]|[ \t]*[,.;)]|[ \t]+\p{Ll}|$)`)
)

// proprietorships adds the names of firms a text says a proprietor
// stands for ("M/s Shree Balaji Enterprises through its proprietor Sh.
// Mukesh Goel"): a proprietorship is its proprietor under another name.
func (d *detector) proprietorships() {
	for _, m := range d.findAll(proprietorshipPattern, proprietorshipFirst) {
		match := d.text[m[0]:m[1]]
		firm := match[:proprietorshipThrough.FindStringIndex(match)[0]]
		if n := foreign(strings.Fields(firm)[1:]); n != nil {
			d.addParty(n)
		}
	}
}

var (
	proprietorshipThrough = regexp.MustCompile(`(?i)[ \t]*,?[ \t]*(?:through|thr\.?|represented[ \t]+by)[ \t]+(?:its|his|her|the)[ \t]+(?:sole[ \t]+)?(?:proprietor|proprietress|proprietrix)$`)
	proprietorshipPattern = regexp.MustCompile(`^M/[sS]\.?[ \t]+\p{Lu}[\pL.&'-]*(?:[ \t]+(?:\p{Lu}[\pL.&'-]*|&|and|of)){0,5}[ \t]*,?[ \t]*(?i:through|thr\.?|represented[ \t]+by)[ \t]+(?i:its|his|her|the)[ \t]+(?i:sole[ \t]+)?(?i:proprietor|proprietress|proprietrix)`)
	proprietorshipFirst   = setOf(`m`)
)

// aliasLike reports whether a namedAsPattern match gives an alias, after
// which one word in lower case or in quotes is a name too.
func aliasLike(match string) bool {
	m := strings.ToLower(match)
	return strings.Contains(m, "name") || strings.Contains(m, "known") || strings.Contains(m, "call") || strings.Contains(m, "referred") || strings.Contains(m, "initials") || strings.Contains(m, "shout")
}

var (
	namedAsPattern = regexp.MustCompile(`(?i)^(?:(?:in|under)[ \t]+the[ \t]+names?(?:[ \t]+and[ \t]+style)?[ \t]+of|(?:trading|carrying[ \t]+on[ \t]+business|doing[ \t]+business)[ \t]+as|calls?(?:[ \t]+(?:the[ \t]+|his[ \t]+|her[ \t]+|their[ \t]+)?(?:child|boy|girl|him|her|them|baby|son|daughter|` + kinWords + `|` + indianKinWords + `))?|(?:also[ \t]+)?known[ \t]+as|pet[ \t]*-?[ \t]*name|nick[ \t]*-?[ \t]*name|nicknamed|also[ \t]+called|(?:calling|called|shouting|shouted)[ \t]+(?:to[ \t]+)?(?:another[ \t]+one|one|him|her|them|the[ \t]+other)|referred[ \t]+to[ \t]+as|(?:refers?[ \t]+to[ \t]+\S+[ \t]+)?by[ \t]+(?:his|her|their|the)[ \t]+(?:initials|nick[ \t]*-?[ \t]*name|pet[ \t]*-?[ \t]*name)[ \t]*,?|(?:referred[ \t]+to|called|known|addressed)[ \t]+(?:by|in|among|at|within)[ \t]+(?:the[ \t]+|her[ \t]+|his[ \t]+|their[ \t]+)?(?:\pL+[ \t]+){0,2}?as|addressed[ \t]+to|written[ \t]+(?:by|to)|signed[ \t]+by|sent[ \t]+(?:by|to)|issued[ \t]+to|handed[ \t]+over[ \t]+to|paid[ \t]+to|received[ \t]+from|letter[ \t]+(?:of|from)|complaint[ \t]+of|statement[ \t]+of|affidavit[ \t]+of|evidence[ \t]+of|deposition[ \t]+of|testimony[ \t]+of)\b(?:[ \t]+(?:is|was|being|of))?[ \t]*[:,]?[ \t]*["'“‘]?[ \t]*`)
	namedAsFirst   = setOf(`trading carrying doing in under call calls called calling shouting shouted referred refers refer by also known pet nick nickname nicknamed addressed written signed sent issued handed paid received letter complaint statement affidavit evidence deposition testimony`)
)

// lines adds the names that stand alone on a line, or after a list's
// number at its start ("2. Priyanka Kumari"): a cause title's parties, a
// signature, a stenographer's name under an order. A name there that is
// one English word, such as a heading, is passed over.
func (d *detector) lines() {
	for start := 0; start < len(d.text); {
		end := strings.IndexByte(d.text[start:], '\n')
		if end < 0 {
			end = len(d.text) - start
		}
		d.lineName(start, start+end)
		start += end + 1
	}
}

// lineNumber is a list's number at a line's start.
var lineNumber = regexp.MustCompile(`^[ \t]*(?:\(?\d{1,3}[.)]|\(?[ivx]{1,4}\))[ \t]+`)

// lineName adds the name of the line text[start:end], if it holds one:
// after a list's number, a name at its start; else a name that is the
// whole line, which, when it is one word, must not be a word of wrapped
// prose (the line before ends a sentence, a date or a label).
func (d *detector) lineName(start, end int) {
	line := d.text[start:end]
	i := start
	m := lineNumber.FindStringIndex(line)
	if m != nil {
		i += m[1]
	}
	i = skipBlanks(d.text, i, end)
	if i >= end || !startsCapital(d.text, i) {
		return
	}
	n, e := d.nameAt(i)
	if n == nil || e > end || d.known(n) || d.counselOrJudge(i, e) || d.precedent(i, e) {
		return
	}
	whole := strings.TrimSpace(strings.Trim(d.text[e:end], ".,;:-… \t")) == ""
	if m == nil && (!whole || len(n) == 1 && !afterBreak(d.text, start)) {
		return
	}
	if name := foreign(n); name != nil {
		d.add(name)
	}
}

// afterBreak reports whether the line before the one starting at text[i]
// ends what it says (with a full stop, a colon, a parenthesis, a digit or
// nothing), so a word alone on the line at i is no wrapped prose's.
func afterBreak(text string, i int) bool {
	prev := strings.TrimRight(text[:max(0, i-1)], " \t\r")
	if prev == "" || strings.HasSuffix(prev, "\n") {
		return true
	}
	c := prev[len(prev)-1]
	return strings.IndexByte(".:;)-", c) >= 0 || c >= '0' && c <= '9'
}

// signature adds the name on the text's last line that holds one, as a
// stenographer or a clerk signs an order ("Pinky", "Ashish/-"), whatever
// its words.
func (d *detector) signature() {
	end := len(strings.TrimRight(d.text, " \t\r\n"))
	start := strings.LastIndexByte(d.text[:end], '\n') + 1
	end = len(strings.TrimRight(strings.TrimSuffix(d.text[:end], "/-"), " \t"))
	i := skipBlanks(d.text, start, end)
	if i >= end || !startsCapital(d.text, i) {
		return
	}
	n, e := (&detector{text: d.text[:end]}).nameAt(i)
	if n != nil && e == end && len(n) <= 3 && !d.known(n) && !d.counselOrJudge(i, e) && !allCaps(n) {
		d.add(n)
	}
}

// staffMarks adds the initials a stenographer or a reader marks an order
// with under its signature: a line of two to five letters, perhaps between
// slashes or after a date, perhaps with a second mark after a slash
// ("/vb/", "17.02.2021 anju", "JANUARY 30, 2024 / rk", "MBS/CT:ANB"),
// that opens with a date or follows a line that is one (a judge's "JUDGE",
// "Member (J)", "SINGH, J", or a date). Only the first mark is a person's:
// the second is a section's ("CT" of "MBS/CT:ANB" is a court's table).
func (d *detector) staffMarks() {
	prev := ""
	for _, line := range strings.Split(d.text, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		m := staffMarkPattern.FindStringSubmatch(line)
		if m != nil && (m[1] != "" || signOffPattern.MatchString(prev)) && staffInitials(m[2]) {
			d.add([]string{m[2]})
		}
		prev = line
	}
}

// staffInitials reports whether w may be a stenographer's mark: no
// English word, no roman numeral, no judge's letter.
func staffInitials(w string) bool {
	l := strings.ToLower(w)
	return !isEnglish(l) && !romanNumeral.MatchString(l) && l != "sd"
}

var (
	staffDate        = `(?:\d{1,2}[./-]\d{1,2}[./-]\d{2,4}|[A-Za-z]{3,9}[ \t]+\d{1,2},?[ \t]+\d{4}|\d{1,2}(?:st|nd|rd|th)?[ \t]+[A-Za-z]{3,9},?[ \t]+\d{4})`
	staffMarkPattern = regexp.MustCompile(`^[ \t]*(` + staffDate + `[ \t]*/?)?[ \t]*/?([A-Za-z]{2,5})/?(?:[A-Za-z]{2,5}(?::[A-Za-z]{2,5})?)?[ \t]*$`)
	signOffPattern   = regexp.MustCompile(`(?i)^[ \t]*(?:` + staffDate + `|judge|(?:acting[ \t]+)?chief[ \t]+justice|.*,[ \t]*j\.?|.*\bmember[ \t]*\([a-z]\)|.*\bj\.)[ \t]*$`)
	romanNumeral     = regexp.MustCompile(`^[ivxlc]+$`)
)

// allCaps reports whether every word is in capitals, as a heading is.
func allCaps(words []string) bool {
	for _, w := range words {
		if strings.ToUpper(w) != w {
			return false
		}
	}
	return true
}

// skipBlanks moves i past spaces and tabs, up to end.
func skipBlanks(text string, i, end int) int {
	for i < end && (text[i] == ' ' || text[i] == '\t') {
		i++
	}
	return i
}

// foreign returns words when one of them is no English word, else nil.
func foreign(words []string) []string {
	for _, w := range words {
		if !isInitials(w) && !isEnglish(strings.TrimSuffix(w, ".")) {
			return words
		}
	}
	return nil
}

// initialled adds the initials a text says someone signed with:
// 'initialled "P.V.R."', "signed as R.K.".
func (d *detector) initialled() {
	for _, m := range d.findAll(initialledPattern, initialledFirst) {
		if n, _ := initialsAt(d.text, m[1]); n != nil {
			d.add(n)
		}
	}
}

var (
	initialledPattern = regexp.MustCompile(`(?i)^(?:initialled|initialed|initials|initial|signed|signature)\b(?:[ \t]+(?:as|by|of|reads|reading))?[ \t]*["“'‘]?`)
	initialledFirst   = setOf(`initialled initialed initials initial signed signature`)
)

// aliasWord reads the one word of an alias that nameAt takes for no name,
// such as a nickname in lower case: "Suresh @ sonu".
func aliasWord(text string, i int) string {
	i = skipSpace(text, i)
	for i < len(text) && strings.IndexByte("\"'(", text[i]) >= 0 {
		i++
	}
	if strings.HasPrefix(text[i:], "“") || strings.HasPrefix(text[i:], "‘") {
		i += len("“")
	}
	w, _, _ := wordAt(text, i)
	w = strings.TrimRight(w, ".'’-")
	if len(w) < 2 || notNameWords[strings.ToLower(w)] || isEnglish(w) {
		return ""
	}
	return w
}

// aliasEnglish reads an alias that is one capitalised English word after
// a person's name and "a.k.a.", "alias" or "@", a nickname as Indian
// families give them: "Rakesh Kumar a.k.a. Sunny", "Ram @ Bunty". A
// word that is no name's ("the", "Rs") is none.
func aliasEnglish(text string, i int) string {
	w, _, _ := wordAt(text, skipSpace(text, i))
	w = strings.TrimRight(w, ".,'’")
	if len(w) < 3 || w[0] < 'A' || w[0] > 'Z' || w[1] < 'a' || w[1] > 'z' || notNameWords[strings.ToLower(w)] {
		return ""
	}
	return w
}

// generic adds the names that no rule of context finds: two to five
// capitalised words (or initials and a word), at least one of them no
// English word and none a word of courts, places or procedure, that are
// no counsel's, judge's or cited precedent's, nor alone a word of a cited
// party's name, nor a textbook's author. When unsure, a name is
// tokenized.
func (d *detector) generic() {
	for i := 0; i < len(d.text); {
		if !startsCapital(d.text, i) {
			i++
			continue
		}
		n, end := d.nameAt(i)
		if n == nil {
			i = nextWord(d.text, i)
			continue
		}
		if d.seen[strings.ToLower(strings.Join(n, " "))] {
			i = end // found whole by a rule of context: no part of it alone
			continue
		}
		if name := trimEnglish(n); name != nil && !d.known(name) && !d.known(n) && !d.counselOrJudge(i, end) && !d.precedent(i, end) && !d.citedAlone(name) && !authorAt(d.text, i) {
			d.add(name)
		}
		i = end
	}
}

// author is the name of a textbook's author, cited with its title:
// "Mulla's Principles of Hindu Law", "Ratanlal's Law of Crimes",
// "Sarkar's Commentary".
var author = regexp.MustCompile(`^\p{Lu}[\p{L}.-]*(?:['’]s)?[ \t]+(?:Principles|Commentar(?:y|ies)|Treatise|Digest|Law[ \t]+of|(?:Hindu|Mahomedan|Muslim)[ \t]+Law)\b`)

// authorAt reports whether the name at text[i] is a textbook's author.
func authorAt(text string, i int) bool {
	return author.MatchString(text[i:min(len(text), i+60)])
}

// citedAlone reports whether name is one word of a cited party's name,
// which alone would be tokenized inside the case's name (citedWord).
func (d *detector) citedAlone(name []string) bool {
	return len(name) == 1 && d.citedWord(strings.ToLower(strings.TrimSuffix(name[0], ".")))
}

// startsCapital reports whether a capitalised word starts at text[i].
func startsCapital(text string, i int) bool {
	if i > 0 && nameRune(rune(text[i-1])) || text[i] < 'A' || text[i] > 'Z' {
		return false
	}
	return i == 0 || text[i-1] < 0x80
}

// nextWord returns where the word after the one at text[i] may start.
func nextWord(text string, i int) int {
	for i < len(text) && text[i] != ' ' && text[i] != '\n' && text[i] != '\t' {
		i++
	}
	return i + 1
}

// trimEnglish returns a generic name without the English words it starts
// or ends with ("Thereafter Ramesh Kumar"), or nil when what is left is
// not two words or more with one no English word, or initials and a word.
func trimEnglish(words []string) []string {
	for len(words) > 0 && !isInitials(words[0]) && isEnglish(strings.TrimSuffix(words[0], ".")) {
		words = words[1:]
	}
	for len(words) > 0 && !isInitials(words[len(words)-1]) && isEnglish(strings.TrimSuffix(words[len(words)-1], ".")) {
		words = words[:len(words)-1]
	}
	foreign := 0
	for _, w := range words {
		if !isInitials(w) && !isEnglish(strings.TrimSuffix(w, ".")) {
			foreign++
		}
	}
	if len(words) == 1 && loneName(words[0]) {
		return words
	}
	if len(words) < 2 || foreign == 0 {
		return nil
	}
	return words
}

// loneName reports whether w, met alone, is taken for a name: a
// capitalised word of three letters or more, not all capitals, that is no
// English word, no word of courts, places or procedure, no abbreviated
// given name ("Mohd.", which alone names nobody) and no common
// abbreviation of a judgment ("Crl.", "Exh."). Given names alone
// ("Bindu, the trainee nurse"), surnames ("Patel ji") and the localities
// of an address are met so; when unsure, a name is tokenized.
func loneName(w string) bool {
	if isInitials(w) {
		return false
	}
	w = withoutPossessive([]string{strings.ReplaceAll(strings.TrimSuffix(w, "."), "’", "'")})[0]
	w = w[strings.LastIndexByte(w, '.')+1:] // "R.Sarpotdar" is Sarpotdar's, "B.Sc" no one's
	key := strings.ToLower(w)
	letters := 0
	for _, r := range key {
		if unicode.IsLetter(r) {
			letters++
		}
	}
	return letters >= 3 && !capitalsFirst(w) && !isEnglish(key) && !notNameWords[key] && !nameAbbreviations[key+"."] &&
		!judgmentAbbreviations[key] && !partlyEnglish(key) && !strings.ContainsAny(key, iastLetters)
}

// iastLetters are the letters of the scholarly transliteration of
// Sanskrit (IAST), which a judgment uses for texts and terms it cites
// ("Mahābhārata", "Śrī") and not for the names of the people in it.
const iastLetters = "āīūṛṝḷḹṅṭḍṇśṣḥṃ"

// capitalsFirst reports whether w starts with two capitals, as an
// acronym does ("AOs", "NGOs", "FIRs"), and no name.
func capitalsFirst(w string) bool {
	r := []rune(w)
	return len(r) > 1 && unicode.IsUpper(r[0]) && unicode.IsUpper(r[1])
}

// partlyEnglish reports whether a hyphenated word has a part that is an
// English word or a letter or two ("Co-operative", "E-Office",
// "Commissioner-P"): a word of the text's own, not a name.
func partlyEnglish(key string) bool {
	parts := strings.Split(key, "-")
	if len(parts) < 2 {
		return false
	}
	for _, p := range parts {
		if len(p) <= 2 || isEnglish(p) {
			return true
		}
	}
	return false
}

// judgmentAbbreviations are abbreviations a judgment writes capitalised,
// and the words of Indian law and administration that the English word
// list does not hold, which name nobody.
var judgmentAbbreviations = setOf(`crl cri crim civ misc spl addl asst supdt exh exts ext appl petn resp govt
	ld rs jan feb mar apr jun jul aug sep sept oct nov dec mon tue wed thu fri sat sun
	january february march april may june july august september october november december
	monday tuesday wednesday thursday friday saturday sunday indian hindi english urdu sanskrit
	assessee assessees arbitral unamended redressal tribunal's commissioner's board's company's
	annexure annexures challan challans sanhita nyaya bharatiya nagarik suraksha sakshya adhiniyam
	abhiyan yojana mantri awas lokpal lokayukta lokayukt sarkar rashtriya nirman vikas pradhikaran
	zila zilla palika mahanagar mahanagarpalika nagarpalika parishad mandi samiti aadhaar aadhar paise
	sansad aayog niti vidhan sabha rajya lok adalat adalats kutumb nyayalaya mahila bal kalyan
	crpc ipc bns bnss bsa sarfaesi cenvat modvat octroi mauza mouza mauja tahsil tahsildar mamlatdar
	sarpanch zamindar patta chitta adangal jamabandi girdawari khata khatian khewat khatauni kabristan
	shariat stridhan mehr mahr iddat khula mubarat diwali holi eid navratri durga puja dussehra
	gauhati kohima itanagar aizawl agartala imphal kalaburagi gulbarga dharwad jalpaiguri amaravati
	bilaspur nainital shillong gangtok portblair
	mofussil taluka hobli hoblis mandals tehsils thanas kotwali chowki
	wp wpc slp crlmp rfa rsa mfa fao cwp crm lpa ita itat gstr gstin cgst sgst igst utgst
	inr usd hon'ble honble ibid supra infra viz hsg soc para paras ofcourse occ occu opp regd trib nigam
	caveator caveators gangman havaldar moulvi maulvi munsif qazi kazi talathi chowkidar patwari kotwal daroga
	gujarati kashmiri marathi odia oriya telugu kannada malayalam bengali punjabi assamese konkani sindhi
	bihari portuguese zoroastrian mahomedan mohammedan brahmin brahmins adivasi adivasis christmas onam pongal
	mondays tuesdays wednesdays thursdays fridays saturdays sundays england pakistan australia nepal bangladesh
	america london dubai singapore`)

// precedent reports whether the name at text[start:end] is a party's of
// a cited case: "v." or "versus" next to it, or after up to two more
// capitalised words.
func (d *detector) precedent(start, end int) bool {
	after := d.text[end:min(len(d.text), end+48)]
	if m := nameWordsAfter.FindStringIndex(after); m != nil && m[1] > 0 && precedentAround.MatchString(after[m[1]:]) {
		return true // "Lalita Kumari Sisodia v.", read up to "Kumari"
	}
	return precedentAround.MatchString(after) || precedentBefore.MatchString(d.text[max(0, start-10):start])
}

// nameWordsAfter are up to two more capitalised words after a name, such
// as the rest of a cited party's name past a word that ends a name, up
// to four of them, "and", "of" or "&" before one ("Shankar Finance and
// Investments v.", "Vellore Citizens' Welfare Forum v.").
var nameWordsAfter = regexp.MustCompile(`^(?:[ \t]+(?:(?:and|of|&)[ \t]+)?\p{Lu}[\p{L}.'’-]*){1,4}`)

// What may follow a person's name, by its first word: a marker that needs
// nothing before it ("aged", "alias", "petitioner"), one that follows a
// comma (", the husband of", ", Patwari"), and a witness's or an accused's
// letters before a number ("PW-1", "A-2").
var (
	markerAlone = setOf(`alias urf aka aged age minor since deceased dead prosecutrix victim deposed stated testified
	admitted denied identified supported narrated to was petitioner petitioners respondent respondents appellant
	appellants complainant plaintiff plaintiffs defendant defendants applicant applicants claimant claimants opposite`)
	markerComma  = setOf(`the his her their ` + strings.NewReplacer("|", " ", `[ \t]+`, " ").Replace(kinWords+"|"+officialWords))
	markerNumber = setOf(`a p pw d dw c cw`)
)

// markerNext reports whether a marker of a person's name may start at
// text[i]: "@" or "a.k.a.", or, after spaces, a comma, dots and a parenthesis, a digit
// or a word that may start one. It spares the patterns most of a text's
// spaces.
func markerNext(text string, i int) bool {
	j, comma := i, false
	for j < len(text) && j-i < 12 && strings.IndexByte(" \t,(.", text[j]) >= 0 {
		comma = comma || text[j] == ','
		j++
	}
	if j >= len(text) {
		return false
	}
	if text[j] == '@' || text[j] >= '0' && text[j] <= '9' || strings.HasPrefix(strings.ToLower(text[j:min(len(text), j+5)]), "a.k.a") {
		return true
	}
	k := j
	for k < len(text) && k-j < 14 && isASCIILetter(rune(text[k])) {
		k++
	}
	w := text[j:k]
	switch {
	case k == j:
		return false
	case inSet(markerAlone, w):
		return true
	case inSet(markerComma, w):
		return comma
	case inSet(markerNumber, w):
		rest := strings.TrimLeft(text[k:min(len(text), k+4)], ".- \twW")
		return rest != "" && rest[0] >= '0' && rest[0] <= '9'
	}
	return false
}

// initialsAt reads a name of initials only at text[i], such as a victim
// named "A.B." or "X.Y.Z.", which nameAt takes for no name: two letters
// or more.
func initialsAt(text string, i int) ([]string, int) {
	i = skipSpace(text, i)
	w, _, _ := wordAt(text, i)
	if !isInitials(w) || strings.Count(w, ".") < 2 {
		return nil, 0
	}
	return []string{w}, i + len(w)
}
