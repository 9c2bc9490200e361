package lucene

import (
	"errors"
	"strings"
	"testing"

	"github.com/cdaedge/cdaedge/edge/analysis"
)

// Analyzers of Lucene's QueryParserTestBase, by the names the table uses:
//
//	""    MockAnalyzer(SIMPLE, lowercase) — letters only, lower-cased: analysis.Simple
//	"ws"  MockAnalyzer(WHITESPACE, false) — whitespace, case kept: analysis.Whitespace
//	"wsl" MockAnalyzer(WHITESPACE, true)  — whitespace, lower-cased
//	"std" analysis.Standard
func testAnalyzer(name string) (analysis.Analyzer, bool) {
	switch name {
	case "ws":
		return analysis.Whitespace, false
	case "wsl":
		return func(dst []analysis.Token, text string) []analysis.Token {
			n := len(dst)
			dst = analysis.Whitespace(dst, text)
			for i := n; i < len(dst); i++ {
				dst[i].Term = lower(dst[i].Term)
			}
			return dst
		}, true
	case "std":
		return analysis.Standard, true
	}
	return analysis.Simple, true
}

// luceneCase is one case of Lucene's classic parser tests (QueryParserTestBase,
// TestQueryParser): the query, the analyzer, whether the default operator is AND
// (assertQueryEqualsDOA), and the expected Query.toString("field") — the form
// Lucene's tests print, where the default field "field" is not named. named()
// adds it (D10 prints every field). A want starting with "=" is already in the
// fully named form; "!" means a parse error is expected.
type luceneCase struct {
	in   string
	an   string
	and  bool
	want string
}

var luceneCases = []luceneCase{
	// testSimple
	{"term term term", "", false, "term term term"},
	{"türm term term", "", false, "türm term term"},
	{"ümlaut", "", false, "ümlaut"},
	{"a AND b", "", false, "+a +b"},
	{"(a AND b)", "", false, "+a +b"},
	{"c OR (a AND b)", "", false, "c (+a +b)"},
	{"a AND NOT b", "", false, "+a -b"},
	{"a AND -b", "", false, "+a -b"},
	{"a AND !b", "", false, "+a -b"},
	{"a && b", "", false, "+a +b"},
	{"a OR b", "", false, "a b"},
	{"a || b", "", false, "a b"},
	{"a OR !b", "", false, "a -b"},
	{"a OR -b", "", false, "a -b"},
	{"+term -term term", "", false, "+term -term term"},
	{"foo:term AND field:anotherTerm", "", false, "+foo:term +anotherterm"},
	{`term AND "phrase phrase"`, "", false, `+term +"phrase phrase"`},
	{`"hello there"`, "", false, `"hello there"`},
	{"germ term^2.0", "", false, "germ (term)^2.0"},
	{"(term)^2.0", "", false, "(term)^2.0"},
	{"(germ term)^2.0", "", false, "(germ term)^2.0"},
	{"term^2.0", "", false, "(term)^2.0"},
	{"term^2", "", false, "(term)^2.0"},
	{`"germ term"^2.0`, "", false, `("germ term")^2.0`},
	{`"term germ"^2`, "", false, `("term germ")^2.0`},
	{"(foo OR bar) AND (baz OR boo)", "", false, "+(foo bar) +(baz boo)"},
	{"((a OR b) AND NOT c) OR d", "", false, "(+(a b) -c) d"},
	{`+(apple "steve jobs") -(foo bar baz)`, "", false, `+(apple "steve jobs") -(foo bar baz)`},
	{`+title:(dog OR cat) -author:"bob dole"`, "", false, `+(title:dog title:cat) -author:"bob dole"`},
	// testCJK: U+3000 is whitespace
	{"term\u3000term\u3000term", "", false, "term term term"},
	{"用語\u3000用語\u3000用語", "", false, "用語 用語 用語"},
	// testOperatorVsWhitespace (LUCENE-2566): a bare operator is a term
	{"a - b", "ws", false, "=field:a field:- field:b"},
	{"a + b", "ws", false, "=field:a field:+ field:b"},
	{"a ! b", "ws", false, "=field:a field:! field:b"},
	// testPunct
	{"a&b", "ws", false, "a&b"},
	{"a&&b", "ws", false, "a&&b"},
	{".NET", "ws", false, ".NET"},
	// testSlop
	{`"term germ"~2`, "", false, `"term germ"~2`},
	{`"term germ"~2 flork`, "", false, `"term germ"~2 flork`},
	{`"term"~2`, "", false, "term"},
	{`" "~2 germ`, "", false, "germ"},
	{`"term germ"~2^2`, "", false, `("term germ"~2)^2.0`},
	// testNumber: SimpleAnalyzer drops digits
	{"3", "", false, `=MatchNoDocsQuery("Matching no documents because no terms present")`},
	{"term 1.0 1 2", "", false, "term"},
	{"term term1 term2", "", false, "term term term"},
	{"3", "wsl", false, "3"},
	{"term 1.0 1 2", "wsl", false, "term 1.0 1 2"},
	{"term term1 term2", "wsl", false, "term term1 term2"},
	// testWildcard (with Fuzziness "2", Lucene's FuzzyQuery.defaultMaxEdits)
	{"term*", "", false, "term*"},
	{"term*^2", "", false, "(term*)^2.0"},
	{"term~", "", false, "term~2"},
	{"term~1", "", false, "term~1"},
	{"term~^3", "", false, "(term~2)^3.0"},
	{"term*germ", "", false, "term*germ"},
	{"term*germ^3", "", false, "(term*germ)^3.0"},
	{"term~1.1", "", false, "!"},
	// Elasticsearch's Fuzziness.fromString: a fraction is an error (Lucene: term~1).
	{"term~0.7", "", false, "!"},
	{"term~3", "", false, "!"},
	{"term~2.0", "", false, "term~2"},
	{"term~0", "", false, "term~0"},
	{"Term*", "", false, "term*"},
	{"TERM*", "", false, "term*"},
	{"Te?m", "", false, "te?m"},
	{"te?m", "", false, "te?m"},
	{"TE?M", "", false, "te?m"},
	{"Te?m*gerM", "", false, "te?m*germ"},
	{"Term~", "", false, "term~2"},
	{"[A TO C]", "", false, "[a TO c]"},
	{"*Term", "", false, "*term"}, // allowed: Elasticsearch's allow_leading_wildcard default
	{"?Term", "", false, "?term"},
	{"t*erm*", "", false, "t*erm*"},
	{"?term*", "", false, "?term*"},
	{"*term*", "", false, "*term*"},
	// testQPA, with "123" (no letters: no token for SimpleAnalyzer) for the stop word
	{"term term^3.0 term", "", false, "term (term)^3.0 term"},
	{"term 123^3.0 term", "", false, "term term"},
	{"term +123 term", "", false, "term term"},
	{"term -123 term", "", false, "term term"},
	{"drop AND (123) AND roll", "", false, "+drop +roll"},
	{"term +(123) term", "", false, "term term"},
	{"term -(123) term", "", false, "term term"},
	{"drop AND 123 AND roll", "", false, "+drop +roll"},
	{"123^3", "", false, `=MatchNoDocsQuery("Matching no documents because no terms present")`},
	{"(123)^3", "", false, `=MatchNoDocsQuery("Matching no documents because no terms present")`},
	{"((123))^3", "", false, `=MatchNoDocsQuery("Matching no documents because no terms present")`},
	{"(123^3)", "", false, `=MatchNoDocsQuery("Matching no documents because no terms present")`},
	{"((123)^3)", "", false, `=MatchNoDocsQuery("Matching no documents because no terms present")`},
	{"(123)", "", false, `=MatchNoDocsQuery("Matching no documents because no terms present")`},
	{"((123))", "", false, `=MatchNoDocsQuery("Matching no documents because no terms present")`},
	{"term +123", "", false, "term"},
	// testRange
	{"[ a TO z]", "", false, "[a TO z]"},
	{"[ a TO z}", "", false, "[a TO z}"},
	{"{ a TO z]", "", false, "{a TO z]"},
	{"[ a TO * ]", "", false, "[a TO *]"},
	{"[ * TO z ]", "", false, "[* TO z]"},
	{"[ * TO * ]", "", false, "[* TO *]"},
	{"{ a TO z ]", "", false, "{a TO z]"},
	{"[ a TO z }", "", false, "[a TO z}"},
	{"{ a TO * ]", "", false, "{a TO *]"},
	{"[ * TO z }", "", false, "[* TO z}"},
	{"[ a TO z ]", "", false, "[a TO z]"},
	{"{ a TO z}", "", false, "{a TO z}"},
	{"{ a TO z }", "", false, "{a TO z}"},
	{"{ a TO z }^2.0", "", false, "({a TO z})^2.0"},
	{"[ a TO z] OR bar", "", false, "[a TO z] bar"},
	{"[ a TO z] AND bar", "", false, "+[a TO z] +bar"},
	{"( bar blar { a TO z}) ", "", false, "bar blar {a TO z}"},
	{"gack ( bar blar { a TO z}) ", "", false, "gack (bar blar {a TO z})"},
	{"[* TO Z]", "", false, "[* TO z]"},
	{"[A TO *]", "", false, "[a TO *]"},
	{"[* TO *]", "", false, "[* TO *]"},
	// testRangeWithPhrase: Elasticsearch's getRangeQuery makes any "*" bound open
	// (Lucene keeps a quoted or escaped one: [\* TO \*]).
	{`[\* TO "*"]`, "", false, "[* TO *]"},
	{`["*" TO *]`, "", false, "[* TO *]"},
	// testRangeQueryEndpointTO
	{"[to TO to]", "", false, "[to TO to]"},
	{"[to TO TO]", "", false, "[to TO to]"},
	{"[TO TO to]", "", false, "[to TO to]"},
	{"[TO TO TO]", "", false, "[to TO to]"},
	{`["TO" TO "TO"]`, "", false, "[to TO to]"},
	{`["TO" TO TO]`, "", false, "[to TO to]"},
	{`[TO TO "TO"]`, "", false, "[to TO to]"},
	{"[to TO xx]", "", false, "[to TO xx]"},
	{`["TO" TO xx]`, "", false, "[to TO xx]"},
	{"[TO TO xx]", "", false, "[to TO xx]"},
	{"[xx TO to]", "", false, "[xx TO to]"},
	{`[xx TO "TO"]`, "", false, "[xx TO to]"},
	{"[xx TO TO]", "", false, "[xx TO to]"},
	// testRangeQueryRequiresTO
	{"{A TO B}", "", false, "{a TO b}"},
	{"[A TO B}", "", false, "[a TO b}"},
	{"{A TO B]", "", false, "{a TO b]"},
	{"[A TO B]", "", false, "[a TO b]"},
	{"{A B}", "", false, "!"},
	{"[A B}", "", false, "!"},
	{"{A B]", "", false, "!"},
	{"[A B]", "", false, "!"},
	{"{TO B}", "", false, "!"},
	{"[TO B}", "", false, "!"},
	{"{TO B]", "", false, "!"},
	{"[TO B]", "", false, "!"},
	{"{A TO}", "", false, "!"},
	{"[A TO}", "", false, "!"},
	{"{A TO]", "", false, "!"},
	{"[A TO]", "", false, "!"},
	// testEscaped
	{`\a`, "ws", false, "a"},
	{`a\-b:c`, "ws", false, "a-b:c"},
	{`a\+b:c`, "ws", false, "a+b:c"},
	{`a\:b:c`, "ws", false, "a:b:c"},
	{`a\\b:c`, "ws", false, `a\b:c`},
	{`a:b\-c`, "ws", false, "a:b-c"},
	{`a:b\+c`, "ws", false, "a:b+c"},
	{`a:b\:c`, "ws", false, "a:b:c"},
	{`a:b\\c`, "ws", false, `a:b\c`},
	{`a:b\-c*`, "ws", false, "a:b-c*"},
	{`a:b\+c*`, "ws", false, "a:b+c*"},
	{`a:b\:c*`, "ws", false, "a:b:c*"},
	{`a:b\\c*`, "ws", false, `a:b\c*`},
	{`a:b\-c~`, "ws", false, "a:b-c~2"},
	{`a:b\+c~`, "ws", false, "a:b+c~2"},
	{`a:b\:c~`, "ws", false, "a:b:c~2"},
	{`a:b\\c~`, "ws", false, `a:b\c~2`},
	{`[ a\- TO a\+ ]`, "", false, "[a- TO a+]"},
	{`[ a\: TO a\~ ]`, "", false, "=field:[a: TO a~]"},
	{`[ a\\ TO a\* ]`, "", false, `[a\ TO a*]`},
	{`["c\:\\temp\\\~foo0.txt" TO "c\:\\temp\\\~foo9.txt"]`, "ws", false, `=field:[c:\temp\~foo0.txt TO c:\temp\~foo9.txt]`},
	{`a\\\+b`, "ws", false, `a\+b`},
	{`a \"b c\" d`, "ws", false, `=field:a field:"b field:c" field:d`},
	{`"a \"b c\" d"`, "ws", false, `=field:"a "b c" d"`},
	{`"a \+b c d"`, "ws", false, `"a +b c d"`},
	{`c\:\\temp\\\~foo.txt`, "ws", false, `=field:c:\temp\~foo.txt`},
	{`XY\`, "", false, "!"},
	{`a\u0062c`, "ws", false, "abc"},
	{`XY\u005a`, "ws", false, "XYZ"},
	{`XY\u005A`, "ws", false, "XYZ"},
	{`"a \\\u0028\u0062\" c"`, "ws", false, `=field:"a \(b" c"`},
	{`XY\u005G`, "", false, "!"},
	{`XY\u005`, "", false, "!"},
	{`(item:\\ item:ABCD\\)`, "ws", false, `item:\ item:ABCD\`},
	{`(item:\\ item:ABCD\\))`, "", false, "!"},
	{`\*`, "ws", false, "=field:*"},
	{`\\`, "ws", false, `\`},
	{`\`, "", false, "!"},
	{`("a\\") or ("b")`, "ws", false, `=field:a\ field:or field:b`},
	// testEscapedVsQuestionMarkAsWildcard: wildcard patterns keep their escapes
	{`a:b\-?c`, "ws", false, `a:b\-?c`},
	{`a:b\+?c`, "ws", false, `a:b\+?c`},
	{`a:b\:?c`, "ws", false, `a:b\:?c`},
	{`a:b\\?c`, "ws", false, `a:b\\?c`},
	{`foo\?ba?r`, "ws", false, `foo\?ba?r`},
	// testTabNewlineCarriageReturn
	{"+weltbank +worlbank", "", true, "+weltbank +worlbank"},
	{"+weltbank\n+worlbank", "", true, "+weltbank +worlbank"},
	{"weltbank \n+worlbank", "", true, "+weltbank +worlbank"},
	{"weltbank \n +worlbank", "", true, "+weltbank +worlbank"},
	{"+weltbank\r+worlbank", "", true, "+weltbank +worlbank"},
	{"weltbank \r+worlbank", "", true, "+weltbank +worlbank"},
	{"weltbank \r +worlbank", "", true, "+weltbank +worlbank"},
	{"+weltbank\r\n+worlbank", "", true, "+weltbank +worlbank"},
	{"weltbank \r\n+worlbank", "", true, "+weltbank +worlbank"},
	{"weltbank \r\n +worlbank", "", true, "+weltbank +worlbank"},
	{"weltbank \r \n +worlbank", "", true, "+weltbank +worlbank"},
	{"+weltbank\t+worlbank", "", true, "+weltbank +worlbank"},
	{"weltbank \t+worlbank", "", true, "+weltbank +worlbank"},
	{"weltbank \t +worlbank", "", true, "+weltbank +worlbank"},
	// testSimpleDAO
	{"term term term", "", true, "+term +term +term"},
	{"term +term term", "", true, "+term +term +term"},
	{"term term +term", "", true, "+term +term +term"},
	{"term +term +term", "", true, "+term +term +term"},
	{"-term term term", "", true, "-term +term +term"},
	// testException
	{`"some phrase`, "", false, "!"},
	{"(foo bar", "", false, "!"},
	{"foo bar))", "", false, "!"},
	{"field:term:with:colon some more terms", "", false, "!"},
	{"(sub query)^5.0^2.0 plus more", "", false, "!"},
	{"secret AND illegal) AND access:confidential", "", false, "!"},
	// testPrecedence: A AND B OR C AND D is +A +B +C +D
	{"A AND B OR C AND D", "ws", false, "+A +B +C +D"},
	{"+A +B +C +D", "ws", false, "+A +B +C +D"},
	// testMatchAllDocs
	{"*:*", "ws", false, "=*:*"},
	{"(*:*)", "ws", false, "=*:*"},
	{"+*:* -*:*", "ws", false, "=+*:* -*:*"},
	// testRegexps: regexp terms lower-cased (D12), `\/` kept
	{"/[a-z][123]/", "wsl", false, "/[a-z][123]/"},
	{"/[A-Z][123]/", "wsl", false, "/[a-z][123]/"},
	{"/[A-Z][123]/^0.5", "wsl", false, "(/[a-z][123]/)^0.5"},
	{`/[a-z]\/[123]/`, "wsl", false, `/[a-z]\/[123]/`},
	{`/[a-z]\*[123]/`, "wsl", false, `/[a-z]\*[123]/`},
	{`/[a-z]\/[123]/ AND path:"/etc/init.d/" OR "/etc\/init\[.\]d/lucene/" `, "wsl", false,
		`+/[a-z]\/[123]/ +path:/etc/init.d/ /etc/init[.]d/lucene/`},
	{"field:/http.*/", "wsl", false, "/http.*/"},
	{"/http.*/", "wsl", false, "/http.*/"},
	{"field:/http~0.5/", "wsl", false, "/http~0.5/"},
	{"/http~0.5/", "wsl", false, "/http~0.5/"},
	{"field:/boo/", "wsl", false, "/boo/"},
	{"/boo/", "wsl", false, "/boo/"},
	{`"/boo/"`, "wsl", false, "/boo/"},
	{`\/boo\/`, "wsl", false, "/boo/"},
	{"field:/foo/ field:/bar/", "wsl", false, "/foo/ /bar/"},
	{"/foo/ /bar/", "wsl", false, "/foo/ /bar/"},
	// TestQueryParser.testDefaultOperator / precedence odd cases
	{"a OR b AND c", "", false, "a +b +c"},
	{"a AND b OR c", "", false, "+a +b c"},
	{"a AND b OR c", "", true, "+a b c"},
	{"a OR b AND c", "", true, "a +b +c"},
	{"a b OR c", "", true, "+a b c"},
	{"a OR b c", "", true, "a b +c"},
	{"-a OR b", "", true, "-a b"},
	{"+a OR b", "", true, "a b"},
	{"a NOT b", "", false, "a -b"},
	{"a NOT b", "", true, "+a -b"},
	{"NOT a", "", false, "-a #*:*"},
	{"-a", "", false, "-a #*:*"},
	{"!a", "", false, "-a #*:*"},
	{"-a -b", "", false, "-a -b #*:*"},
	{"a -(b c)", "", false, "a -(b c)"},
	{"-(a b)", "", false, "-(a b) #*:*"},
	{"(-a) b", "", false, "(-a #*:*) b"},
	{"a AND (-b)", "", false, "+a +(-b #*:*)"},
	{"+a", "", false, "+a"},
	{"a ^2", "", false, "(a)^2.0"},
	{"(a)", "", false, "a"},
	{"((a))", "", false, "a"},
	{"(a)^2", "", false, "(a)^2.0"},
	{"((a)^2)^3", "", false, "((a)^2.0)^3.0"},
	{"a^2^3", "", false, "!"},
	{"a AND", "", false, "!"},
	{"AND a", "", false, "!"},
	{"a OR OR b", "", false, "!"},
	{"a AND NOT NOT b", "", false, "!"},
	{"()", "", false, "!"},
	{"a ()", "", false, "!"},
	{"a^", "", false, "!"},
	{"a^x", "", false, "!"},
	{"a^ 2", "", false, "!"},
	{"a^2.5", "", false, "(a)^2.5"},
	{"a^0.5 b^10", "", false, "(a)^0.5 (b)^10.0"},
	{"a~2^3", "", false, "(a~2)^3.0"},
	{"a^3~2", "", false, "(a~2)^3.0"},
	{`"a b"~3^2`, "", false, `("a b"~3)^2.0`},
	{`"a b"^2~3`, "", false, `("a b"~3)^2.0`},
	{`"a b"~`, "", false, `"a b"`},
	{`"a b"~x`, "", false, `"a b"`},
	{`"a b"~2.9`, "", false, `"a b"~2`},
	{`"a b"~-1`, "", false, "!"},
	{`"a b c"~10`, "", false, `"a b c"~10`},
	{"title:dog", "", false, "title:dog"},
	{"title:(dog cat)", "", false, "title:dog title:cat"},
	{"title:(dog OR cat) bird", "", false, "(title:dog title:cat) bird"},
	{"title:(+dog -cat)", "", false, "+title:dog -title:cat"},
	{`title:"dog cat"`, "", false, `title:"dog cat"`},
	{"title:dog*", "", false, "title:dog*"},
	{"title:[a TO b]", "", false, "title:[a TO b]"},
	{"title:{a TO *]", "", false, "title:{a TO *]"},
	{"title:(a title2:b)", "", false, "title:a title2:b"},
	{"title:", "", false, "!"},
	{"title: dog", "", false, "title:dog"},
	{"a b:c", "", false, "a b:c"},
	{"a b^2", "", false, "a (b)^2.0"},
	{"a b~", "", false, "a b~2"},
	{"a b c:d e", "", false, "a b c:d e"},
	{"a b AND c", "", false, "a +b +c"},
	{"a b OR c", "", false, "a b c"},
	{"a b* c", "", false, "a b* c"},
	{`a "b c" d`, "", false, `a "b c" d`},
	{"a (b c) d", "", false, "a (b c) d"},
	{"a -b c", "", false, "a -b c"},
	{"a +b c", "", false, "a +b c"},
	{"a AND b c", "", false, "+a +b c"},
	// Wildcards and prefixes
	{"*", "", false, "=FieldExistsQuery [field=field]"},
	{"field:*", "", false, "=FieldExistsQuery [field=field]"},
	{"other:*", "", false, "=FieldExistsQuery [field=other]"},
	{"*:*^2", "", false, "=(*:*)^2.0"},
	{"?", "", false, "?"},
	{"**", "", false, "**"},
	{"a*b?c", "", false, "a*b?c"},
	{"a-b*", "", false, "a-b*"},
	{"AND*", "", false, "and*"},
	{"a\\*b*", "ws", false, "a*b*"},
	{"te?m*", "", false, "te?m*"},
	{"te?m*^2", "", false, "(te?m*)^2.0"},
	{"a* b*", "", false, "a* b*"},
	{"a*~", "", false, "a*"},
	{"/a/~2", "", false, "/a/"},
	// Keywords need exact case and their own token
	{"and or not", "", false, "and or not"},
	{"ANDROID", "", false, "android"},
	{"ORACLE NOTE", "", false, "oracle note"},
	{"a&&b", "", false, "a b"},
	{"a||b", "", false, "a b"},
	{"a !b", "", false, "a -b"},
	{"a !", "", false, "!"},
	// Regexps
	{"/a/b/", "", false, "!"},
	{"/unterminated", "", false, "!"},
	{`/a\/b/`, "", false, `/a\/b/`},
	{`/a\/`, "", false, `/a\/`},
	{"/A.*/", "ws", false, "/A.*/"},
	{"a/b", "", false, "!"},
	// Lexical errors
	{"a ]", "", false, "!"},
	{"a }", "", false, "!"},
	{`"a`, "", false, "!"},
	{`"a\"`, "", false, "!"},
	{"[a TO b", "", false, "!"},
	{"[a TO b] ^2", "", false, "([a TO b])^2.0"},
	{"[a TO b]^2", "", false, "([a TO b])^2.0"},
	{"[a TO b]~", "", false, "!"},
	{"[ a  TO  b ]", "", false, "[a TO b]"},
	{`["a b" TO "c d"]`, "", false, "[a b TO c d]"},
	{"[a TO b] c", "", false, "[a TO b] c"},
	{"[1 TO 5]", "", false, "[1 TO 5]"},
	{"[2021-01-01 TO 2021-12-31]", "", false, "[2021-01-01 TO 2021-12-31]"},
}

// named turns Lucene's toString("field") form into the fully named form of D10 by
// naming the field of every atom that has none.
func named(s, field string) string {
	var b strings.Builder
	atStart := true
	for i := 0; i < len(s); {
		c := s[i]
		if atStart {
			switch c {
			case '+', '-', '#', '(', ' ':
				b.WriteByte(c)
				i++
				continue
			}
			atStart = false
			end := i
			switch c {
			case '"':
				end = strings.IndexByte(s[i+1:], '"') + i + 2
				b.WriteString(field + ":")
			case '[', '{':
				end = strings.IndexAny(s[i:], "]}") + i + 1
				b.WriteString(field + ":")
			default:
				for end < len(s) && s[end] != ' ' && s[end] != ')' {
					switch s[end] {
					case '"':
						end += strings.IndexByte(s[end+1:], '"') + 1
					case '[', '{':
						end += strings.IndexAny(s[end:], "]}")
					}
					end++
				}
				if !strings.Contains(s[i:end], ":") {
					b.WriteString(field + ":")
				}
			}
			b.WriteString(s[i:end])
			i = end
			continue
		}
		if c == ' ' {
			atStart = true
		}
		b.WriteByte(c)
		i++
	}
	return b.String()
}

func luceneOptions(c luceneCase) Options {
	o := DefaultOptions()
	o.DefaultField = "field"
	o.Fuzziness = "2" // Lucene's FuzzyQuery.defaultMaxEdits, for `term~`
	o.Analyzer, o.AnalyzerLowercases = testAnalyzer(c.an)
	if c.and {
		o.DefaultOperator = AND
	}
	return o
}

func TestLuceneTable(t *testing.T) {
	pass := 0
	for _, c := range luceneCases {
		q, err := Parse(c.in, luceneOptions(c))
		switch {
		case c.want == "!":
			var se *SyntaxError
			if err == nil {
				t.Errorf("Parse(%q) = %s, want an error", c.in, q)
				continue
			}
			if !errors.As(err, &se) || se.Line < 1 || se.Column < 1 {
				t.Errorf("Parse(%q): error %v is not a positioned *SyntaxError", c.in, err)
				continue
			}
		case err != nil:
			t.Errorf("Parse(%q): %v", c.in, err)
			continue
		default:
			want := c.want
			if strings.HasPrefix(want, "=") {
				want = want[1:]
			} else {
				want = named(want, "field")
			}
			if got := q.String(); got != want {
				t.Errorf("Parse(%q) (analyzer %q, AND %v)\n got %s\nwant %s", c.in, c.an, c.and, got, want)
				continue
			}
		}
		pass++
	}
	t.Logf("%d of %d Lucene cases pass", pass, len(luceneCases))
}
