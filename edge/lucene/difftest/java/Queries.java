// Part of the Lucene oracle of edge/lucene/difftest (see LuceneOracle.java).

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionIncrementAttribute;
import org.apache.lucene.analysis.core.SimpleAnalyzer;
import org.apache.lucene.analysis.core.WhitespaceAnalyzer;
import org.apache.lucene.document.DoublePoint;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.queryparser.classic.QueryParser;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.ConstantScoreQuery;
import org.apache.lucene.search.DisjunctionMaxQuery;
import org.apache.lucene.search.FuzzyQuery;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.MatchNoDocsQuery;
import org.apache.lucene.search.MultiPhraseQuery;
import org.apache.lucene.search.AutomatonQuery;
import org.apache.lucene.util.automaton.Automata;
import org.apache.lucene.util.automaton.Automaton;
import org.apache.lucene.util.automaton.Operations;
import org.apache.lucene.search.PrefixQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.RegexpQuery;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.StringHelper;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TermRangeQuery;
import org.apache.lucene.search.WildcardQuery;
import org.apache.lucene.util.QueryBuilder;

/** Queries builds the oracle's Lucene queries from its JSON requests (see LuceneOracle). */
final class Queries {
  private Queries() {}


  static Query build(Map<String, Object> q) throws Exception {
    String t = str(q, "t");
    switch (t) {
      case "qs":
        Parsers.OracleParser p;
        if (q.get("fields") != null) {
          p = new Parsers.OracleParser(Parsers.OracleParser.FIELDS, weights(q), num(q, "tie", 0).floatValue(), analyzer(q));
        } else {
          p = new Parsers.OracleParser(str(q, "df"), null, 0, analyzer(q));
        }
        if (Boolean.TRUE.equals(q.get("and"))) {
          p.setDefaultOperator(QueryParser.Operator.AND);
        }
        p.setFuzzyPrefixLength(num(q, "fpl", 0).intValue());
        p.setPhraseSlop(num(q, "slop", 0).intValue());
        p.fuzzyMax = num(q, "fmax", 50).intValue();
        p.fuzzyTranspositions = !Boolean.FALSE.equals(q.get("ftr"));
        p.fuzziness = num(q, "fz", -1).intValue();
        Query parsed = p.parse(str(q, "q"));
        return q.get("msm") != null ? minimumShouldMatch(parsed, str(q, "msm")) : parsed;
      case "sqs": {
        Parsers.SimpleParser sp = new Parsers.SimpleParser(weights(q), num(q, "flags", -1).intValue());
        sp.setDefaultOperator(Boolean.TRUE.equals(q.get("and")) ? BooleanClause.Occur.MUST : BooleanClause.Occur.SHOULD);
        sp.fuzzyPrefix = num(q, "fpl", 0).intValue();
        sp.fuzzyMax = num(q, "fmax", 50).intValue();
        sp.fuzzyTranspositions = !Boolean.FALSE.equals(q.get("ftr"));
        Query simple = sp.parse(str(q, "q"));
        return q.get("msm") != null ? minimumShouldMatch(simple, str(q, "msm")) : simple;
      }
      case "all":
        return new MatchAllDocsQuery();
      case "none":
        return new MatchNoDocsQuery();
      case "match": {
        BooleanClause.Occur occ = Boolean.TRUE.equals(q.get("and")) ? BooleanClause.Occur.MUST : BooleanClause.Occur.SHOULD;
        QueryBuilder qb = new QueryBuilder(analyzer(q));
        if (q.get("fuzzy") != null) {
          qb = new FuzzyBuilder(analyzer(q), LuceneOracle.Json.object(q.get("fuzzy")));
        }
        Query m = qb.createBooleanQuery(str(q, "f"), str(q, "q"), occ);
        if (m != null && q.get("msm") != null) {
          m = minimumShouldMatch(m, str(q, "msm"));
        }
        if (m == null && "all".equals(q.get("zero"))) {
          return new MatchAllDocsQuery();
        }
        return m == null ? new MatchNoDocsQuery() : m;
      }
      case "phraseprefix": {
        Query m = phrasePrefix(str(q, "f"), str(q, "q"), num(q, "slop", 0).intValue(), num(q, "max", 50).intValue());
        return m == null ? new MatchNoDocsQuery() : m;
      }
      case "ci":
        return caseInsensitive(str(q, "kind"), str(q, "f"), str(q, "v"));
      case "boolprefix": {
        Query m = boolPrefix(str(q, "f"), str(q, "q"), Boolean.TRUE.equals(q.get("and")));
        return m == null ? new MatchNoDocsQuery() : m;
      }
      case "phrase": {
        Query m = new QueryBuilder(analyzer(q)).createPhraseQuery(str(q, "f"), str(q, "q"), num(q, "slop", 0).intValue());
        return m == null ? new MatchNoDocsQuery() : m;
      }
      case "term":
        return new TermQuery(new Term(str(q, "f"), str(q, "v")));
      case "num":
        return DoublePoint.newExactQuery(str(q, "f"), num(q, "v", 0));
      case "const":
        return new ConstantScoreQuery(build(LuceneOracle.Json.object(q.get("q"))));
      case "boost":
        return new BoostQuery(build(LuceneOracle.Json.object(q.get("q"))), num(q, "b", 1).floatValue());
      case "exists":
        return exists(str(q, "f"));
      case "dismax": {
        List<Query> subs = new ArrayList<>();
        for (Object o : (List<?>) q.get("qs")) {
          subs.add(build(LuceneOracle.Json.object(o)));
        }
        return new DisjunctionMaxQuery(subs, num(q, "tie", 0).floatValue());
      }
      case "bool":
        return bool(q);
      case "range":
        return range(str(q, "f"), (String) q.get("lo"), (String) q.get("hi"),
            Boolean.TRUE.equals(q.get("il")), Boolean.TRUE.equals(q.get("ih")), null);
      case "prefix":
        return new PrefixQuery(new Term(str(q, "f"), str(q, "v")));
      case "wildcard":
        return new WildcardQuery(new Term(str(q, "f"), str(q, "v")));
      case "regexp":
        return new RegexpQuery(new Term(str(q, "f"), str(q, "v")));
      case "fuzzy":
        return new FuzzyQuery(new Term(str(q, "f"), str(q, "v")), num(q, "edits", 2).intValue(),
            num(q, "prefix", 0).intValue(), num(q, "max", 50).intValue(), !Boolean.FALSE.equals(q.get("tr")));
      default:
        throw new IllegalArgumentException("unknown query type " + t);
    }
  }

  /**
   * FuzzyBuilder is QueryBuilder as Elasticsearch's match query with fuzziness uses it:
   * every analysed term becomes a FuzzyQuery, its edits AUTO (by the term's length) or
   * fixed ("edits"), with the prefix length, expansions and transpositions given.
   */
  static final class FuzzyBuilder extends QueryBuilder {
    final Map<String, Object> opts;

    FuzzyBuilder(Analyzer analyzer, Map<String, Object> opts) {
      super(analyzer);
      this.opts = opts;
    }

    @Override
    protected Query newTermQuery(Term term, float boost) {
      int edits = num(opts, "edits", -1).intValue();
      if (edits < 0) {
        int n = term.text().codePointCount(0, term.text().length());
        edits = n < 3 ? 0 : n < 6 ? 1 : 2;
      }
      return new FuzzyQuery(term, edits, num(opts, "prefix", 0).intValue(), num(opts, "max", 50).intValue(),
          !Boolean.FALSE.equals(opts.get("tr")));
    }
  }

  /**
   * minimumShouldMatch is Elasticsearch's Queries.maybeApplyMinimumShouldMatch: on a
   * BooleanQuery, the spec (a count, a negative count, a percentage or a negative one)
   * over its SHOULD clauses, when it comes to more than 0; any other query unchanged.
   */
  static Query minimumShouldMatch(Query q, String spec) {
    if (!(q instanceof BooleanQuery)) {
      return q;
    }
    BooleanQuery bq = (BooleanQuery) q;
    int optional = 0;
    for (BooleanClause c : bq.clauses()) {
      if (c.getOccur() == BooleanClause.Occur.SHOULD) {
        optional++;
      }
    }
    int result = optional;
    spec = spec.trim();
    if (spec.endsWith("%")) {
      int percent = Integer.parseInt(spec.substring(0, spec.length() - 1));
      float calc = (result * percent) * (1 / 100f);
      result = calc < 0 ? result + (int) calc : (int) calc;
    } else {
      int calc = Integer.parseInt(spec);
      result = calc < 0 ? result + calc : calc;
    }
    result = Math.max(0, result);
    if (result == 0) {
      return q;
    }
    BooleanQuery.Builder b = new BooleanQuery.Builder();
    for (BooleanClause c : bq.clauses()) {
      b.add(c);
    }
    b.setMinimumNumberShouldMatch(result);
    return b.build();
  }

  /**
   * boolPrefix is Elasticsearch's match_bool_prefix: the text's terms as analysed for
   * the field, each a TermQuery but the last, a PrefixQuery (constant score), joined
   * by the operator; one term alone is its PrefixQuery; none, null.
   */
  static Query boolPrefix(String field, String text, boolean and) throws IOException {
    List<String> toks = new ArrayList<>();
    try (TokenStream ts = LuceneOracle.QUERY.tokenStream(field, text)) {
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      ts.reset();
      while (ts.incrementToken()) {
        toks.add(term.toString());
      }
      ts.end();
    }
    if (toks.isEmpty()) {
      return null;
    }
    if (toks.size() == 1) {
      return new PrefixQuery(new Term(field, toks.get(0)));
    }
    BooleanQuery.Builder b = new BooleanQuery.Builder();
    for (int i = 0; i < toks.size(); i++) {
      Term t = new Term(field, toks.get(i));
      b.add(i == toks.size() - 1 ? new PrefixQuery(t) : new TermQuery(t),
          and ? BooleanClause.Occur.MUST : BooleanClause.Occur.SHOULD);
    }
    return b.build();
  }

  /**
   * analyzer is a query's analysis: per field (LuceneOracle.QUERY), or the analyzer it names ("an":
   * standard, simple, whitespace or keyword), which Elasticsearch then forces on every
   * field, exact forms included.
   */
  static Analyzer analyzer(Map<String, Object> q) {
    Object an = q.get("an");
    if (an == null) {
      return LuceneOracle.QUERY;
    }
    switch ((String) an) {
      case "standard":
        return LuceneOracle.TEXT;
      case "simple":
        return new SimpleAnalyzer();
      case "whitespace":
        return new WhitespaceAnalyzer();
      case "keyword":
        return LuceneOracle.KEYWORD;
      default:
        throw new IllegalArgumentException("unknown analyzer " + an);
    }
  }

  /**
   * phrasePrefix is Elasticsearch's match_phrase_prefix (MultiPhrasePrefixQuery): the
   * text's terms as analysed for the field, at their positions, the last one replaced by
   * the first max terms of the index that start with it (in the index's order), as a
   * MultiPhraseQuery with the slop; no term, or no expansion, matches nothing.
   */
  static Query phrasePrefix(String field, String text, int slop, int max) throws IOException {
    List<String> toks = new ArrayList<>();
    List<Integer> positions = new ArrayList<>();
    try (TokenStream ts = LuceneOracle.QUERY.tokenStream(field, text)) {
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      PositionIncrementAttribute inc = ts.addAttribute(PositionIncrementAttribute.class);
      ts.reset();
      int pos = -1;
      while (ts.incrementToken()) {
        pos += inc.getPositionIncrement();
        toks.add(term.toString());
        positions.add(pos);
      }
      ts.end();
    }
    if (toks.isEmpty()) {
      return null;
    }
    int last = toks.size() - 1;
    List<Term> expanded = new ArrayList<>();
    BytesRef prefix = new BytesRef(toks.get(last));
    for (org.apache.lucene.index.LeafReaderContext leaf : LuceneOracle.reader.leaves()) {
      Terms terms = leaf.reader().terms(field);
      if (terms == null) {
        continue;
      }
      TermsEnum te = terms.iterator();
      if (te.seekCeil(prefix) == TermsEnum.SeekStatus.END) {
        continue;
      }
      for (BytesRef t = te.term(); t != null && expanded.size() < max; t = te.next()) {
        if (!StringHelper.startsWith(t, prefix)) {
          break;
        }
        expanded.add(new Term(field, BytesRef.deepCopyOf(t)));
      }
    }
    if (expanded.isEmpty()) {
      return null;
    }
    MultiPhraseQuery.Builder b = new MultiPhraseQuery.Builder();
    b.setSlop(slop);
    for (int i = 0; i < last; i++) {
      b.add(new Term[] {new Term(field, toks.get(i))}, positions.get(i));
    }
    b.add(expanded.toArray(new Term[0]), positions.get(last));
    return b.build();
  }

  /**
   * caseInsensitive is Elasticsearch's case_insensitive term, prefix or wildcard query
   * (AutomatonQueries): each code point matches itself and, when it has one, its other
   * case (Character.toUpperCase of a lower-case letter, toLowerCase of any other); "*"
   * and "?" of a wildcard are any string and any character, "\\" takes the next code
   * point as it is. Constant score.
   */
  static Query caseInsensitive(String kind, String field, String v) {
    List<Automaton> parts = new ArrayList<>();
    int[] cps = v.codePoints().toArray();
    for (int i = 0; i < cps.length; i++) {
      int c = cps[i];
      if (kind.equals("wildcard") && c == '*') {
        parts.add(Automata.makeAnyString());
      } else if (kind.equals("wildcard") && c == '?') {
        parts.add(Automata.makeAnyChar());
      } else if (kind.equals("wildcard") && c == '\\' && i + 1 < cps.length) {
        parts.add(Automata.makeChar(cps[++i]));
      } else {
        int alt = Character.isLowerCase(c) ? Character.toUpperCase(c) : Character.toLowerCase(c);
        parts.add(alt != c ? Operations.union(Automata.makeChar(c), Automata.makeChar(alt)) : Automata.makeChar(c));
      }
    }
    if (kind.equals("prefix")) {
      parts.add(Automata.makeAnyString());
    }
    Automaton a = parts.isEmpty() ? Automata.makeEmptyString() : Operations.concatenate(parts);
    return new CaseInsensitiveQuery(new Term(field, v), a, kind);
  }

  /**
   * CaseInsensitiveQuery is an AutomatonQuery that prints its kind and value, not its
   * automaton's identity, so that the stored cases' Lucene text repeats from run to run.
   */
  static final class CaseInsensitiveQuery extends AutomatonQuery {
    final String kind;

    CaseInsensitiveQuery(Term term, Automaton a, String kind) {
      super(term, a);
      this.kind = kind;
    }

    @Override
    public String toString(String field) {
      return getField() + ":" + kind + "(" + term.text() + ", case_insensitive)";
    }
  }

  /** weights reads a query's "fields": [{"f":"<field>","b":<boost, default 1>},...]. */
  static Map<String, Float> weights(Map<String, Object> q) throws Exception {
    Map<String, Float> w = new LinkedHashMap<>();
    for (Object o : (List<?>) q.get("fields")) {
      Map<String, Object> f = LuceneOracle.Json.object(o);
      w.put(str(f, "f"), num(f, "b", 1).floatValue());
    }
    return w;
  }

  static Query bool(Map<String, Object> q) throws Exception {
    BooleanQuery.Builder b = new BooleanQuery.Builder();
    String[] names = {"must", "should", "filter", "must_not"};
    BooleanClause.Occur[] occurs = {BooleanClause.Occur.MUST, BooleanClause.Occur.SHOULD,
        BooleanClause.Occur.FILTER, BooleanClause.Occur.MUST_NOT};
    for (int i = 0; i < names.length; i++) {
      Object list = q.get(names[i]);
      if (list == null) {
        continue;
      }
      for (Object o : (List<?>) list) {
        b.add(build(LuceneOracle.Json.object(o)), occurs[i]);
      }
    }
    b.setMinimumNumberShouldMatch(num(q, "msm", 0).intValue());
    return b.build();
  }

  /** exists is Elasticsearch's exists query: the item has a value in the field. */
  static Query exists(String field) {
    String base = field.endsWith(".keyword") ? field.substring(0, field.length() - 8) : field;
    return new ConstantScoreQuery(new TermQuery(new Term(LuceneOracle.EXISTS, base)));
  }

  /**
   * range is a range on a field of any kind: numbers and dates compare as such (a date
   * bound must be a full ISO instant), text as a TermRangeQuery over its terms, with the
   * bounds normalized by the normalizer when there is one (query_string's analyzer).
   */
  static Query range(String field, String lo, String hi, boolean il, boolean ih, Analyzer normalizer) {
    switch (LuceneOracle.kindOf(field)) {
      case NUM: {
        double l = lo == null ? Double.NEGATIVE_INFINITY : Double.parseDouble(lo);
        double h = hi == null ? Double.POSITIVE_INFINITY : Double.parseDouble(hi);
        if (lo != null && !il) {
          l = Math.nextUp(l);
        }
        if (hi != null && !ih) {
          h = Math.nextDown(h);
        }
        return new ConstantScoreQuery(DoublePoint.newRangeQuery(field, l, h));
      }
      case DATE: {
        long l = lo == null ? Long.MIN_VALUE : Instant.parse(lo).toEpochMilli() + (il ? 0 : 1);
        long h = hi == null ? Long.MAX_VALUE : Instant.parse(hi).toEpochMilli() - (ih ? 0 : 1);
        return new ConstantScoreQuery(LongPoint.newRangeQuery(field, l, h));
      }
      default:
        if (normalizer != null) {
          return new TermRangeQuery(field, lo == null ? null : normalizer.normalize(field, lo),
              hi == null ? null : normalizer.normalize(field, hi), il, ih);
        }
        return TermRangeQuery.newStringRange(field, lo, hi, il, ih);
    }
  }

  static String str(Map<String, Object> q, String k) {
    Object v = q.get(k);
    if (!(v instanceof String)) {
      throw new IllegalArgumentException("member " + k + " must be a string");
    }
    return (String) v;
  }

  static Double num(Map<String, Object> q, String k, double dflt) {
    Object v = q.get(k);
    return v instanceof LuceneOracle.Json.Num ? ((LuceneOracle.Json.Num) v).value : dflt;
  }

}
