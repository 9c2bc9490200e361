package analysis

// The named character references Lucene's HTMLStripCharFilter decodes: the
// HTML 4 set plus upper-case AMP, COPY, GT, LT, QUOT and REG (D4). Two sorted
// parallel arrays searched by binary search cost a few KB of read-only data and
// no init-time work, unlike the 2000-entry map behind html.UnescapeString.

// entityNames is sorted by byte order for entityLookup.
var entityNames = [...]string{
	"AElig", "AMP", "Aacute", "Acirc", "Agrave", "Alpha", "Aring", "Atilde", "Auml", "Beta",
	"COPY", "Ccedil", "Chi", "Dagger", "Delta", "ETH", "Eacute", "Ecirc", "Egrave",
	"Epsilon", "Eta", "Euml", "GT", "Gamma", "Iacute", "Icirc", "Igrave", "Iota", "Iuml",
	"Kappa", "LT", "Lambda", "Mu", "Ntilde", "Nu", "OElig", "Oacute", "Ocirc", "Ograve",
	"Omega", "Omicron", "Oslash", "Otilde", "Ouml", "Phi", "Pi", "Prime", "Psi", "QUOT",
	"REG", "Rho", "Scaron", "Sigma", "THORN", "Tau", "Theta", "Uacute", "Ucirc", "Ugrave",
	"Upsilon", "Uuml", "Xi", "Yacute", "Yuml", "Zeta", "aacute", "acirc", "acute", "aelig",
	"agrave", "alefsym", "alpha", "amp", "and", "ang", "apos", "aring", "asymp", "atilde",
	"auml", "bdquo", "beta", "brvbar", "bull", "cap", "ccedil", "cedil", "cent", "chi",
	"circ", "clubs", "cong", "copy", "crarr", "cup", "curren", "dArr", "dagger", "darr",
	"deg", "delta", "diams", "divide", "eacute", "ecirc", "egrave", "empty", "emsp", "ensp",
	"epsilon", "equiv", "eta", "eth", "euml", "euro", "exist", "fnof", "forall", "frac12",
	"frac14", "frac34", "frasl", "gamma", "ge", "gt", "hArr", "harr", "hearts", "hellip",
	"iacute", "icirc", "iexcl", "igrave", "image", "infin", "int", "iota", "iquest", "isin",
	"iuml", "kappa", "lArr", "lambda", "lang", "laquo", "larr", "lceil", "ldquo", "le",
	"lfloor", "lowast", "loz", "lrm", "lsaquo", "lsquo", "lt", "macr", "mdash", "micro",
	"middot", "minus", "mu", "nabla", "nbsp", "ndash", "ne", "ni", "not", "notin", "nsub",
	"ntilde", "nu", "oacute", "ocirc", "oelig", "ograve", "oline", "omega", "omicron",
	"oplus", "or", "ordf", "ordm", "oslash", "otilde", "otimes", "ouml", "para", "part",
	"permil", "perp", "phi", "pi", "piv", "plusmn", "pound", "prime", "prod", "prop", "psi",
	"quot", "rArr", "radic", "rang", "raquo", "rarr", "rceil", "rdquo", "real", "reg",
	"rfloor", "rho", "rlm", "rsaquo", "rsquo", "sbquo", "scaron", "sdot", "sect", "shy",
	"sigma", "sigmaf", "sim", "spades", "sub", "sube", "sum", "sup", "sup1", "sup2", "sup3",
	"supe", "szlig", "tau", "there4", "theta", "thetasym", "thinsp", "thorn", "tilde",
	"times", "trade", "uArr", "uacute", "uarr", "ucirc", "ugrave", "uml", "upsih",
	"upsilon", "uuml", "weierp", "xi", "yacute", "yen", "yuml", "zeta", "zwj", "zwnj",
}

// entityValues[i] is the code point entityNames[i] stands for; all are in the BMP.
var entityValues = [...]uint16{
	0x00C6, 0x0026, 0x00C1, 0x00C2, 0x00C0, 0x0391, 0x00C5, 0x00C3, 0x00C4, 0x0392, 0x00A9,
	0x00C7, 0x03A7, 0x2021, 0x0394, 0x00D0, 0x00C9, 0x00CA, 0x00C8, 0x0395, 0x0397, 0x00CB,
	0x003E, 0x0393, 0x00CD, 0x00CE, 0x00CC, 0x0399, 0x00CF, 0x039A, 0x003C, 0x039B, 0x039C,
	0x00D1, 0x039D, 0x0152, 0x00D3, 0x00D4, 0x00D2, 0x03A9, 0x039F, 0x00D8, 0x00D5, 0x00D6,
	0x03A6, 0x03A0, 0x2033, 0x03A8, 0x0022, 0x00AE, 0x03A1, 0x0160, 0x03A3, 0x00DE, 0x03A4,
	0x0398, 0x00DA, 0x00DB, 0x00D9, 0x03A5, 0x00DC, 0x039E, 0x00DD, 0x0178, 0x0396, 0x00E1,
	0x00E2, 0x00B4, 0x00E6, 0x00E0, 0x2135, 0x03B1, 0x0026, 0x2227, 0x2220, 0x0027, 0x00E5,
	0x2248, 0x00E3, 0x00E4, 0x201E, 0x03B2, 0x00A6, 0x2022, 0x2229, 0x00E7, 0x00B8, 0x00A2,
	0x03C7, 0x02C6, 0x2663, 0x2245, 0x00A9, 0x21B5, 0x222A, 0x00A4, 0x21D3, 0x2020, 0x2193,
	0x00B0, 0x03B4, 0x2666, 0x00F7, 0x00E9, 0x00EA, 0x00E8, 0x2205, 0x2003, 0x2002, 0x03B5,
	0x2261, 0x03B7, 0x00F0, 0x00EB, 0x20AC, 0x2203, 0x0192, 0x2200, 0x00BD, 0x00BC, 0x00BE,
	0x2044, 0x03B3, 0x2265, 0x003E, 0x21D4, 0x2194, 0x2665, 0x2026, 0x00ED, 0x00EE, 0x00A1,
	0x00EC, 0x2111, 0x221E, 0x222B, 0x03B9, 0x00BF, 0x2208, 0x00EF, 0x03BA, 0x21D0, 0x03BB,
	0x2329, 0x00AB, 0x2190, 0x2308, 0x201C, 0x2264, 0x230A, 0x2217, 0x25CA, 0x200E, 0x2039,
	0x2018, 0x003C, 0x00AF, 0x2014, 0x00B5, 0x00B7, 0x2212, 0x03BC, 0x2207, 0x0020, 0x2013,
	0x2260, 0x220B, 0x00AC, 0x2209, 0x2284, 0x00F1, 0x03BD, 0x00F3, 0x00F4, 0x0153, 0x00F2,
	0x203E, 0x03C9, 0x03BF, 0x2295, 0x2228, 0x00AA, 0x00BA, 0x00F8, 0x00F5, 0x2297, 0x00F6,
	0x00B6, 0x2202, 0x2030, 0x22A5, 0x03C6, 0x03C0, 0x03D6, 0x00B1, 0x00A3, 0x2032, 0x220F,
	0x221D, 0x03C8, 0x0022, 0x21D2, 0x221A, 0x232A, 0x00BB, 0x2192, 0x2309, 0x201D, 0x211C,
	0x00AE, 0x230B, 0x03C1, 0x200F, 0x203A, 0x2019, 0x201A, 0x0161, 0x22C5, 0x00A7, 0x00AD,
	0x03C3, 0x03C2, 0x223C, 0x2660, 0x2282, 0x2286, 0x2211, 0x2283, 0x00B9, 0x00B2, 0x00B3,
	0x2287, 0x00DF, 0x03C4, 0x2234, 0x03B8, 0x03D1, 0x2009, 0x00FE, 0x02DC, 0x00D7, 0x2122,
	0x21D1, 0x00FA, 0x2191, 0x00FB, 0x00F9, 0x00A8, 0x03D2, 0x03C5, 0x00FC, 0x2118, 0x03BE,
	0x00FD, 0x00A5, 0x00FF, 0x03B6, 0x200D, 0x200C,
}

// maxEntityName is the length of the longest name (thetasym).
const maxEntityName = 8

// entityLookup returns the code point of the entity named name.
func entityLookup(name string) (rune, bool) {
	lo, hi := 0, len(entityNames)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		switch {
		case entityNames[m] < name:
			lo = m + 1
		case entityNames[m] > name:
			hi = m
		default:
			return rune(entityValues[m]), true
		}
	}
	return 0, false
}
