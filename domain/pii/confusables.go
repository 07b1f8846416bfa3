package pii

// confusable maps the Greek and Cyrillic letters that Unicode's
// confusables data (confusables.txt, "MA" entries) gives a single Latin
// letter or digit as their look-alike to that letter or digit, so a PAN
// spelt with Greek Α or Cyrillic С is read as the PAN it looks like. Where
// the data's skeleton is "l" for a letter that looks like a capital I
// (Greek Ι, Cyrillic І and Ӏ), I is taken: a PAN is upper case. The same
// data's Cherokee look-alikes, and the Latin small capitals (ᴀ ʙ ᴄ), which
// NFKC leaves alone, are read the same way.
var confusable = map[rune]rune{
	// Greek
	'Ϳ': 'J', 'Α': 'A', 'Β': 'B', 'Ε': 'E', 'Ζ': 'Z', 'Η': 'H', 'Ι': 'I', 'Κ': 'K',
	'Μ': 'M', 'Ν': 'N', 'Ο': 'O', 'Ρ': 'P', 'Τ': 'T', 'Υ': 'Y', 'Χ': 'X', 'α': 'a',
	'γ': 'y', 'ι': 'i', 'ν': 'v', 'ο': 'o', 'ρ': 'p', 'σ': 'o', 'υ': 'u', 'ϒ': 'Y',
	'Ϝ': 'F', 'ϱ': 'p', 'ϲ': 'c', 'ϳ': 'j', 'Ϲ': 'C', 'Ϻ': 'M',
	// Cyrillic
	'Ѕ': 'S', 'І': 'I', 'Ј': 'J', 'А': 'A', 'В': 'B', 'Е': 'E', 'З': '3', 'К': 'K',
	'М': 'M', 'Н': 'H', 'О': 'O', 'Р': 'P', 'С': 'C', 'Т': 'T', 'У': 'Y', 'Х': 'X',
	'Ь': 'b', 'а': 'a', 'б': '6', 'г': 'r', 'е': 'e', 'о': 'o', 'р': 'p', 'с': 'c',
	'у': 'y', 'х': 'x', 'ѕ': 's', 'і': 'i', 'ј': 'j', 'ѡ': 'w', 'Ѵ': 'V', 'ѵ': 'v',
	'Ү': 'Y', 'ү': 'y', 'һ': 'h', 'ҽ': 'e', 'Ӏ': 'I', 'ӏ': 'i', 'Ӡ': '3', 'ԁ': 'd',
	'Ԍ': 'G', 'ԛ': 'q', 'Ԝ': 'W', 'ԝ': 'w',
	// Cherokee
	'Ꭰ': 'D', 'Ꭱ': 'R', 'Ꭲ': 'T', 'Ꭵ': 'i', 'Ꭹ': 'Y', 'Ꭺ': 'A', 'Ꭻ': 'J', 'Ꭼ': 'E', 'Ꮃ': 'W', 'Ꮇ': 'M',
	'Ꮋ': 'H', 'Ꮍ': 'Y', 'Ꮐ': 'G', 'Ꮒ': 'h', 'Ꮓ': 'Z', 'Ꮞ': '4', 'Ꮟ': 'b', 'Ꮢ': 'R', 'Ꮤ': 'W', 'Ꮥ': 'S',
	'Ꮩ': 'V', 'Ꮪ': 'S', 'Ꮮ': 'L', 'Ꮯ': 'C', 'Ꮲ': 'P', 'Ꮶ': 'K', 'Ꮷ': 'd', 'Ꮾ': '6', 'Ᏻ': 'G', 'Ᏼ': 'B',
	// Latin small capitals, which NFKC leaves as they are
	'ᴀ': 'A', 'ʙ': 'B', 'ᴄ': 'C', 'ᴅ': 'D', 'ᴇ': 'E', 'ꜰ': 'F', 'ɢ': 'G', 'ʜ': 'H', 'ɪ': 'I', 'ᴊ': 'J',
	'ᴋ': 'K', 'ʟ': 'L', 'ᴍ': 'M', 'ɴ': 'N', 'ᴏ': 'O', 'ᴘ': 'P', 'ǫ': 'Q', 'ʀ': 'R', 'ꜱ': 'S', 'ᴛ': 'T',
	'ᴜ': 'U', 'ᴠ': 'V', 'ᴡ': 'W', 'ʏ': 'Y', 'ᴢ': 'Z',
}
