// Part of the Lucene oracle of edge/lucene/difftest (see LuceneOracle.java).

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.document.DoublePoint;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.index.Term;
import org.apache.lucene.queryparser.classic.ParseException;
import org.apache.lucene.queryparser.classic.QueryParser;
import org.apache.lucene.queryparser.simple.SimpleQueryParser;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.ConstantScoreQuery;
import org.apache.lucene.search.DisjunctionMaxQuery;
import org.apache.lucene.search.FuzzyQuery;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.MatchNoDocsQuery;
import org.apache.lucene.search.PrefixQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.util.QueryBuilder;

/** Parsers are the query_string and simple_query_string parsers of the oracle. */
final class Parsers {
  private Parsers() {}

  /**
   * OracleParser is Lucene's classic QueryParser with what Elasticsearch's
   * QueryStringQueryParser adds on top, as far as the harness's queries reach.
   */
  static final class OracleParser extends QueryParser {
    /** A fuzzy similarity no query writes: it marks a bare "~" (fuzziness AUTO). */
    static final float AUTO = 0.123f;
    /** The default field of a parser over a list of fields (weights). */
    static final String FIELDS = "\u0000fields";

    final Map<String, Float> weights;
    final float tie;
    /** fuzzy_max_expansions, fuzzy_transpositions, and fuzziness (-1: AUTO) for a bare "~". */
    int fuzzyMax = 50;
    boolean fuzzyTranspositions = true;
    int fuzziness = -1;

    OracleParser(String defaultField, Map<String, Float> weights, float tie, Analyzer analyzer) {
      super(defaultField, analyzer);
      this.weights = weights;
      this.tie = tie;
      setSplitOnWhitespace(false);
      setAllowLeadingWildcard(true);
      setAutoGeneratePhraseQueries(false);
      setFuzzyMinSim(AUTO);
    }

    interface PerField {
      Query build(String field) throws ParseException;
    }

    /**
     * multi is a clause without a field over the fields, as Elasticsearch's
     * QueryStringQueryParser builds it from its fields and weights: each field's
     * query, boosted by its weight; one alone, more in a dis_max with the tie breaker.
     */
    Query multi(PerField b) throws ParseException {
      List<Query> qs = new ArrayList<>();
      for (Map.Entry<String, Float> e : weights.entrySet()) {
        Query q = b.build(e.getKey());
        if (q != null) {
          qs.add(e.getValue() == 1f || q instanceof MatchNoDocsQuery ? q : new BoostQuery(q, e.getValue()));
        }
      }
      if (qs.isEmpty()) {
        return null;
      }
      return qs.size() == 1 ? qs.get(0) : new DisjunctionMaxQuery(qs, tie);
    }

    @Override
    protected Query getFieldQuery(String field, String text, int slop) throws ParseException {
      if (FIELDS.equals(field)) {
        return multi(f -> getFieldQuery(f, text, slop));
      }
      return super.getFieldQuery(field, text, slop);
    }

    @Override
    protected Query getPrefixQuery(String field, String term) throws ParseException {
      if (FIELDS.equals(field)) {
        return multi(f -> getPrefixQuery(f, term));
      }
      return super.getPrefixQuery(field, term);
    }

    @Override
    protected Query getRegexpQuery(String field, String term) throws ParseException {
      if (FIELDS.equals(field)) {
        return multi(f -> getRegexpQuery(f, term));
      }
      return super.getRegexpQuery(field, term);
    }

    @Override
    protected Query getFieldQuery(String field, String text, boolean quoted) throws ParseException {
      if (LuceneOracle.EXISTS.equals(field)) {
        return Queries.exists(text);
      }
      if (FIELDS.equals(field)) {
        // Elasticsearch's one-sided ranges need a field: over a list of fields (no
        // default field) ">x" is text.
        return multi(f -> fieldText(f, text, quoted));
      }
      if (!quoted && text.length() > 1) {
        // Elasticsearch's one-sided ranges: field:>x, >=x, <x, <=x.
        char c = text.charAt(0);
        boolean eq = text.length() > 2 && text.charAt(1) == '=';
        if (c == '>') {
          return getRangeQuery(field, text.substring(eq ? 2 : 1), null, eq, true);
        }
        if (c == '<') {
          return getRangeQuery(field, null, text.substring(eq ? 2 : 1), true, eq);
        }
      }
      return fieldText(field, text, quoted);
    }

    /** fieldText is the query of text in one field, by the field's kind. */
    Query fieldText(String field, String text, boolean quoted) throws ParseException {
      switch (LuceneOracle.kindOf(field)) {
        case NUM:
          try {
            return new ConstantScoreQuery(DoublePoint.newExactQuery(field, Double.parseDouble(text)));
          } catch (NumberFormatException e) {
            return new MatchNoDocsQuery();
          }
        case DATE:
          try {
            return new ConstantScoreQuery(LongPoint.newExactQuery(field, Instant.parse(text).toEpochMilli()));
          } catch (Exception e) {
            return new MatchNoDocsQuery();
          }
        case BOOL:
          return new ConstantScoreQuery(new TermQuery(new Term(field, text)));
        default:
          return super.getFieldQuery(field, text, quoted);
      }
    }

    @Override
    protected Query getRangeQuery(String field, String lo, String hi, boolean il, boolean ih) throws ParseException {
      if (FIELDS.equals(field)) {
        return multi(f -> getRangeQuery(f, lo, hi, il, ih));
      }
      // No DateTools parsing of the bounds, as in Elasticsearch.
      return Queries.range(field, lo, hi, il, ih, getAnalyzer());
    }

    @Override
    protected Query getFuzzyQuery(String field, String term, float minSim) throws ParseException {
      if (FIELDS.equals(field)) {
        return multi(f -> getFuzzyQuery(f, term, minSim));
      }
      if (minSim != AUTO) {
        return super.getFuzzyQuery(field, term, minSim);
      }
      int n = term.codePointCount(0, term.length());
      int edits = fuzziness >= 0 ? fuzziness : n < 3 ? 0 : n < 6 ? 1 : 2;
      return new FuzzyQuery(new Term(field, getAnalyzer().normalize(field, term)), edits, getFuzzyPrefixLength(),
          fuzzyMax, fuzzyTranspositions);
    }

    /** newFuzzyQuery is Elasticsearch's: "~N" is N edits, with its expansions and transpositions. */
    @Override
    protected Query newFuzzyQuery(Term term, float minimumSimilarity, int prefixLength) {
      return new FuzzyQuery(term, (int) minimumSimilarity, prefixLength, fuzzyMax, fuzzyTranspositions);
    }

    @Override
    protected Query getWildcardQuery(String field, String term) throws ParseException {
      if (FIELDS.equals(field)) {
        return multi(f -> getWildcardQuery(f, term));
      }
      if ("*".equals(term) && !"*".equals(field)) {
        return Queries.exists(field);
      }
      return super.getWildcardQuery(field, term);
    }

    @Override
    protected Query getBooleanQuery(List<BooleanClause> clauses) throws ParseException {
      Query q = super.getBooleanQuery(clauses);
      if (!(q instanceof BooleanQuery)) {
        return q;
      }
      for (BooleanClause c : ((BooleanQuery) q).clauses()) {
        if (c.getOccur() != BooleanClause.Occur.MUST_NOT) {
          return q;
        }
      }
      // Elasticsearch's Queries.fixNegativeQueryIfNeeded.
      BooleanQuery.Builder b = new BooleanQuery.Builder();
      for (BooleanClause c : ((BooleanQuery) q).clauses()) {
        b.add(c);
      }
      b.add(new MatchAllDocsQuery(), BooleanClause.Occur.FILTER);
      return b.build();
    }
  }

  /**
   * SimpleParser is Lucene's SimpleQueryParser (every operator enabled) with what
   * Elasticsearch's SimpleQueryStringQueryParser overrides, with its default settings:
   * text is a multi_match of type most_fields over the fields (each field's query built
   * by QueryBuilder with the field's analyzer, boosted by its weight, several joined by
   * a dis_max with tie breaker 1); a phrase is a multi_match of type phrase (tie
   * breaker 0); fuzzy and prefix terms are normalized by each field's analyzer and
   * joined by a dis_max with tie breaker 1 (fuzzy: prefix length 0, 50 expansions,
   * transpositions).
   */
  static final class SimpleParser extends SimpleQueryParser {
    /** fuzzy_prefix_length, fuzzy_max_expansions and fuzzy_transpositions. */
    int fuzzyPrefix;
    int fuzzyMax = 50;
    boolean fuzzyTranspositions = true;

    SimpleParser(Map<String, Float> weights, int flags) {
      super(LuceneOracle.QUERY, weights, flags);
    }

    @Override
    protected Query newDefaultQuery(String text) {
      List<Query> qs = new ArrayList<>();
      for (Map.Entry<String, Float> e : weights.entrySet()) {
        qs.add(weigh(createBooleanQuery(e.getKey(), text, getDefaultOperator()), e.getValue()));
      }
      return join(qs, 1f);
    }

    @Override
    protected Query newPhraseQuery(String text, int slop) {
      List<Query> qs = new ArrayList<>();
      for (Map.Entry<String, Float> e : weights.entrySet()) {
        qs.add(weigh(createPhraseQuery(e.getKey(), text, slop), e.getValue()));
      }
      return join(qs, 0f);
    }

    @Override
    protected Query newFuzzyQuery(String text, int fuzziness) {
      List<Query> qs = new ArrayList<>();
      for (Map.Entry<String, Float> e : weights.entrySet()) {
        Term t = new Term(e.getKey(), getAnalyzer().normalize(e.getKey(), text));
        qs.add(weigh(new FuzzyQuery(t, fuzziness, fuzzyPrefix, fuzzyMax, fuzzyTranspositions), e.getValue()));
      }
      return join(qs, 1f);
    }

    @Override
    protected Query newPrefixQuery(String text) {
      List<Query> qs = new ArrayList<>();
      for (Map.Entry<String, Float> e : weights.entrySet()) {
        Term t = new Term(e.getKey(), getAnalyzer().normalize(e.getKey(), text));
        qs.add(weigh(new PrefixQuery(t), e.getValue()));
      }
      return join(qs, 1f);
    }

    static Query weigh(Query q, float w) {
      return q == null || w == 1f ? q : new BoostQuery(q, w);
    }

    /** join is MultiMatchQueryParser's: no query is null, one is itself, more a dis_max. */
    static Query join(List<Query> qs, float tie) {
      qs.removeIf(q -> q == null);
      if (qs.isEmpty()) {
        return null;
      }
      return qs.size() == 1 ? qs.get(0) : new DisjunctionMaxQuery(qs, tie);
    }
  }

}
