/*
 * LuceneOracle answers search queries with Lucene itself (8.8, Debian's liblucene8-java),
 * for the differential harness in edge/lucene/difftest (go tool task lucene).
 *
 * Usage: java -cp <lucene jars>:build/lucene LuceneOracle ITEMS.ndjson
 *
 * It indexes the items (one JSON object per line, in the snapshot's item order) the way
 * the snapshot does, as Elasticsearch's dynamic mapping would:
 *   - a member's path is its name at the top level and "Data.a.b" below Data; array
 *     elements are values of the same path (multi-valued, position gap 100);
 *   - a path holding strings is text: StandardTokenizer (max token length 255) and
 *     LowerCaseFilter, no stop words, HTML stripped (HTMLStripCharFilter) inside Data;
 *     plus "<path>.keyword", the raw value as one untokenized term (StringField: no
 *     norms, no frequencies), left out for Data strings over 256 code points
 *     (ignore_above);
 *   - CreatedAt, UpdatedAt and PublishedAt are dates (LongPoint, epoch milliseconds,
 *     plus the raw string as .keyword); a path holding only numbers is numeric
 *     (DoublePoint); only booleans, a boolean ("true"/"false" terms);
 *   - "_exists_" holds the name of every path the item has a value for.
 * Scoring is BM25Similarity(1.2, 0.75). The index is one segment, so document numbers
 * are the input's line numbers (0-based), which are the snapshot's item numbers.
 *
 * Then it reads queries from stdin, one JSON object per line, and writes one JSON line
 * per query: {"total":N,"lq":"<Query.toString()>","hits":[doc,score,doc,score,...]}
 * with every hit best first (ties by document number), or {"error":"..."}. A query
 * with "explain":[doc,...] also gets "explain":[...], Lucene's explanation per document.
 *
 * A query is {"t":"qs","q":"<query_string>","df":"<default field>","and":false} (or,
 * instead of "df", "fields":[{"f":"<field>","b":2},...] and "tie":0.3: Elasticsearch's
 * fields and weights, without a default field), parsed
 * by the classic QueryParser (OracleParser below: split_on_whitespace false, leading
 * wildcards allowed, Elasticsearch's fuzziness AUTO for a bare "~", ES's exists syntax
 * and one-sided ranges, typed fields, and ES's match-all filter for purely negative
 * groups); {"t":"sqs","q":"<simple_query_string>","fields":[{"f":"<field>","b":2},...],
 * "and":false}, parsed by Lucene's SimpleQueryParser with what Elasticsearch's
 * SimpleQueryStringQueryParser overrides (SimpleParser below); or a tree of Lucene queries
 * the harness built from a search DSL clause (see build()). Analysis of query text
 * (match, match_phrase) is Lucene's QueryBuilder.
 */

import java.io.BufferedReader;
import java.io.IOException;
import java.io.BufferedWriter;
import java.io.FileInputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.DelegatingAnalyzerWrapper;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionIncrementAttribute;
import org.apache.lucene.analysis.charfilter.HTMLStripCharFilter;
import org.apache.lucene.analysis.core.KeywordAnalyzer;
import org.apache.lucene.analysis.core.SimpleAnalyzer;
import org.apache.lucene.analysis.core.WhitespaceAnalyzer;
import org.apache.lucene.analysis.standard.StandardTokenizer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.DoublePoint;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.queryparser.classic.ParseException;
import org.apache.lucene.queryparser.classic.QueryParser;
import org.apache.lucene.queryparser.simple.SimpleQueryParser;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.ConstantScoreQuery;
import org.apache.lucene.search.DisjunctionMaxQuery;
import org.apache.lucene.search.FuzzyQuery;
import org.apache.lucene.search.IndexSearcher;
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
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.StringHelper;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TermRangeQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TopScoreDocCollector;
import org.apache.lucene.search.WildcardQuery;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.util.QueryBuilder;

public final class LuceneOracle {
  enum Kind { TEXT, NUM, BOOL, DATE }

  static final String EXISTS = "_exists_";
  static final Map<String, Kind> kinds = new HashMap<>();
  static final Analyzer INDEX = new TextAnalyzer(true);
  static final Analyzer TEXT = new TextAnalyzer(false);
  static final Analyzer KEYWORD = new KeywordAnalyzer();
  static final Analyzer QUERY = new QueryAnalyzer();
  /** The index, for the queries that expand terms when they are built (phrase prefixes). */
  static IndexReader reader;

  public static void main(String[] args) throws Exception {
    if (args.length != 1) {
      System.err.println("usage: LuceneOracle ITEMS.ndjson < queries > answers");
      System.exit(2);
    }
    IndexSearcher searcher = index(args[0]);
    reader = searcher.getIndexReader();
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    BufferedWriter out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), 1 << 16);
    int maxDoc = searcher.getIndexReader().maxDoc();
    System.err.println("LuceneOracle: Lucene " + org.apache.lucene.util.Version.LATEST + ", " + maxDoc + " documents indexed");
    for (String line; (line = in.readLine()) != null; ) {
      if (line.isEmpty()) {
        continue;
      }
      StringBuilder sb = new StringBuilder();
      try {
        Map<String, Object> req = Json.object(Json.parse(line));
        Query q = build(req);
        TopScoreDocCollector c = TopScoreDocCollector.create(Math.max(1, maxDoc), Integer.MAX_VALUE);
        searcher.search(q, c);
        TopDocs td = c.topDocs();
        sb.append("{\"total\":").append(td.scoreDocs.length).append(",\"lq\":");
        Json.quote(sb, q.toString());
        sb.append(",\"hits\":[");
        for (int i = 0; i < td.scoreDocs.length; i++) {
          ScoreDoc sd = td.scoreDocs[i];
          if (i > 0) {
            sb.append(',');
          }
          sb.append(sd.doc).append(',').append(Float.toString(sd.score));
        }
        sb.append(']');
        if (req.get("explain") instanceof List) {
          // Debugging: Lucene's explanation of the score of each listed document.
          sb.append(",\"explain\":[");
          List<?> docs = (List<?>) req.get("explain");
          for (int i = 0; i < docs.size(); i++) {
            if (i > 0) {
              sb.append(',');
            }
            Json.quote(sb, searcher.explain(q, (int) ((Json.Num) docs.get(i)).value).toString());
          }
          sb.append(']');
        }
        sb.append('}');
      } catch (Exception | StackOverflowError e) {
        sb.setLength(0);
        sb.append("{\"error\":");
        Json.quote(sb, e.getClass().getSimpleName() + ": " + e.getMessage());
        sb.append('}');
      }
      out.write(sb.toString());
      out.write('\n');
      out.flush();
    }
  }

  // ---- indexing ----

  static IndexSearcher index(String path) throws Exception {
    List<LinkedHashMap<String, List<Object>>> docs = new ArrayList<>();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(new FileInputStream(path), StandardCharsets.UTF_8))) {
      for (String line; (line = r.readLine()) != null; ) {
        if (line.isEmpty()) {
          continue;
        }
        LinkedHashMap<String, List<Object>> flat = new LinkedHashMap<>();
        for (Map.Entry<String, Object> m : Json.object(Json.parse(line)).entrySet()) {
          collect(flat, m.getKey(), m.getValue());
        }
        docs.add(flat);
      }
    }
    decideKinds(docs);
    ByteBuffersDirectory dir = new ByteBuffersDirectory();
    IndexWriterConfig cfg = new IndexWriterConfig(INDEX);
    cfg.setSimilarity(new BM25Similarity(1.2f, 0.75f));
    cfg.setMergePolicy(NoMergePolicy.INSTANCE);
    cfg.setMaxBufferedDocs(IndexWriterConfig.DISABLE_AUTO_FLUSH);
    cfg.setRAMBufferSizeMB(1900);
    try (IndexWriter w = new IndexWriter(dir, cfg)) {
      for (LinkedHashMap<String, List<Object>> flat : docs) {
        w.addDocument(document(flat));
      }
      w.commit();
    }
    DirectoryReader reader = DirectoryReader.open(dir);
    if (reader.leaves().size() != 1 || reader.maxDoc() != docs.size()) {
      throw new IllegalStateException("want one segment of " + docs.size() + " documents");
    }
    IndexSearcher s = new IndexSearcher(reader);
    s.setSimilarity(new BM25Similarity(1.2f, 0.75f));
    return s;
  }

  /** collect records the scalar values below v under their dotted paths, in source order. */
  static void collect(Map<String, List<Object>> flat, String path, Object v) {
    if (v instanceof Map) {
      for (Map.Entry<String, Object> m : Json.object(v).entrySet()) {
        collect(flat, path + "." + m.getKey(), m.getValue());
      }
    } else if (v instanceof List) {
      for (Object e : (List<?>) v) {
        collect(flat, path, e);
      }
    } else if (v != null) {
      flat.computeIfAbsent(path, k -> new ArrayList<>()).add(v);
    }
  }

  static boolean isDateMember(String path) {
    return path.equals("CreatedAt") || path.equals("UpdatedAt") || path.equals("PublishedAt");
  }

  /** A path is a date (the three date members), text (any string), numeric or boolean. */
  static void decideKinds(List<LinkedHashMap<String, List<Object>>> docs) {
    Map<String, int[]> seen = new HashMap<>();
    for (Map<String, List<Object>> flat : docs) {
      for (Map.Entry<String, List<Object>> e : flat.entrySet()) {
        int[] c = seen.computeIfAbsent(e.getKey(), k -> new int[3]);
        for (Object v : e.getValue()) {
          c[v instanceof String ? 0 : v instanceof Json.Num ? 1 : 2]++;
        }
      }
    }
    for (Map.Entry<String, int[]> e : seen.entrySet()) {
      int[] c = e.getValue();
      Kind k = Kind.BOOL;
      if (isDateMember(e.getKey())) {
        k = Kind.DATE;
      } else if (c[0] > 0) {
        k = Kind.TEXT;
      } else if (c[1] > 0) {
        k = Kind.NUM;
      }
      kinds.put(e.getKey(), k);
    }
  }

  static Document document(Map<String, List<Object>> flat) {
    Document d = new Document();
    for (Map.Entry<String, List<Object>> e : flat.entrySet()) {
      String p = e.getKey();
      d.add(new StringField(EXISTS, p, Field.Store.NO));
      for (Object v : e.getValue()) {
        switch (kinds.get(p)) {
          case TEXT:
            if (v instanceof String) {
              String s = (String) v;
              d.add(new TextField(p, s, Field.Store.NO));
              if (!p.startsWith("Data.") || s.codePointCount(0, s.length()) <= 256) {
                d.add(new StringField(p + ".keyword", s, Field.Store.NO));
              }
            }
            break;
          case NUM:
            d.add(new DoublePoint(p, ((Json.Num) v).value));
            break;
          case BOOL:
            d.add(new StringField(p, v.toString(), Field.Store.NO));
            break;
          case DATE:
            String s = (String) v;
            d.add(new LongPoint(p, Instant.parse(s).toEpochMilli()));
            d.add(new StringField(p + ".keyword", s, Field.Store.NO));
            break;
        }
      }
    }
    return d;
  }

  /** The analyzer of text fields: StandardTokenizer + LowerCaseFilter, position gap 100. */
  static final class TextAnalyzer extends Analyzer {
    final boolean stripData;

    TextAnalyzer(boolean stripData) {
      super(PER_FIELD_REUSE_STRATEGY);
      this.stripData = stripData;
    }

    @Override
    protected TokenStreamComponents createComponents(String field) {
      StandardTokenizer t = new StandardTokenizer();
      t.setMaxTokenLength(255);
      return new TokenStreamComponents(t, new LowerCaseFilter(t));
    }

    @Override
    protected TokenStream normalize(String field, TokenStream in) {
      return new LowerCaseFilter(in);
    }

    @Override
    protected Reader initReader(String field, Reader r) {
      return stripData && field.startsWith("Data.") ? new HTMLStripCharFilter(r) : r;
    }

    @Override
    public int getPositionIncrementGap(String field) {
      return 100;
    }
  }

  /** Query-time analysis per field: the keyword analyzer for exact and typed fields. */
  static final class QueryAnalyzer extends DelegatingAnalyzerWrapper {
    QueryAnalyzer() {
      super(PER_FIELD_REUSE_STRATEGY);
    }

    @Override
    protected Analyzer getWrappedAnalyzer(String field) {
      return kindOf(field) == Kind.TEXT && !field.endsWith(".keyword") && !field.equals(EXISTS) ? TEXT : KEYWORD;
    }
  }

  static Kind kindOf(String field) {
    Kind k = kinds.get(field);
    return k == null ? Kind.TEXT : k;
  }

  // ---- queries ----

  static Query build(Map<String, Object> q) throws Exception {
    String t = str(q, "t");
    switch (t) {
      case "qs":
        OracleParser p;
        if (q.get("fields") != null) {
          p = new OracleParser(OracleParser.FIELDS, weights(q), num(q, "tie", 0).floatValue(), analyzer(q));
        } else {
          p = new OracleParser(str(q, "df"), null, 0, analyzer(q));
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
        SimpleParser sp = new SimpleParser(weights(q), num(q, "flags", -1).intValue());
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
          qb = new FuzzyBuilder(analyzer(q), Json.object(q.get("fuzzy")));
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
        return new ConstantScoreQuery(build(Json.object(q.get("q"))));
      case "boost":
        return new BoostQuery(build(Json.object(q.get("q"))), num(q, "b", 1).floatValue());
      case "exists":
        return exists(str(q, "f"));
      case "dismax": {
        List<Query> subs = new ArrayList<>();
        for (Object o : (List<?>) q.get("qs")) {
          subs.add(build(Json.object(o)));
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
    try (TokenStream ts = QUERY.tokenStream(field, text)) {
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
   * analyzer is a query's analysis: per field (QUERY), or the analyzer it names ("an":
   * standard, simple, whitespace or keyword), which Elasticsearch then forces on every
   * field, exact forms included.
   */
  static Analyzer analyzer(Map<String, Object> q) {
    Object an = q.get("an");
    if (an == null) {
      return QUERY;
    }
    switch ((String) an) {
      case "standard":
        return TEXT;
      case "simple":
        return new SimpleAnalyzer();
      case "whitespace":
        return new WhitespaceAnalyzer();
      case "keyword":
        return KEYWORD;
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
    try (TokenStream ts = QUERY.tokenStream(field, text)) {
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
    for (org.apache.lucene.index.LeafReaderContext leaf : reader.leaves()) {
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
    return new AutomatonQuery(new Term(field, v), a);
  }

  /** weights reads a query's "fields": [{"f":"<field>","b":<boost, default 1>},...]. */
  static Map<String, Float> weights(Map<String, Object> q) throws Exception {
    Map<String, Float> w = new LinkedHashMap<>();
    for (Object o : (List<?>) q.get("fields")) {
      Map<String, Object> f = Json.object(o);
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
        b.add(build(Json.object(o)), occurs[i]);
      }
    }
    b.setMinimumNumberShouldMatch(num(q, "msm", 0).intValue());
    return b.build();
  }

  /** exists is Elasticsearch's exists query: the item has a value in the field. */
  static Query exists(String field) {
    String base = field.endsWith(".keyword") ? field.substring(0, field.length() - 8) : field;
    return new ConstantScoreQuery(new TermQuery(new Term(EXISTS, base)));
  }

  /**
   * range is a range on a field of any kind: numbers and dates compare as such (a date
   * bound must be a full ISO instant), text as a TermRangeQuery over its terms, with the
   * bounds normalized by the normalizer when there is one (query_string's analyzer).
   */
  static Query range(String field, String lo, String hi, boolean il, boolean ih, Analyzer normalizer) {
    switch (kindOf(field)) {
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
    return v instanceof Json.Num ? ((Json.Num) v).value : dflt;
  }

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
      if (EXISTS.equals(field)) {
        return exists(text);
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
      switch (kindOf(field)) {
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
      return range(field, lo, hi, il, ih, getAnalyzer());
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
        return exists(field);
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
      super(QUERY, weights, flags);
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

  // ---- a small JSON reader and string quoting ----

  static final class Json {
    /** Num is a JSON number with its source text. */
    static final class Num {
      final String raw;
      final double value;

      Num(String raw) {
        this.raw = raw;
        this.value = Double.parseDouble(raw);
      }

      @Override
      public String toString() {
        return raw;
      }
    }

    private final String s;
    private int i;

    private Json(String s) {
      this.s = s;
    }

    static Object parse(String s) {
      Json j = new Json(s);
      Object v = j.value();
      j.ws();
      if (j.i != s.length()) {
        throw new IllegalArgumentException("trailing data at " + j.i);
      }
      return v;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> object(Object v) {
      if (!(v instanceof Map)) {
        throw new IllegalArgumentException("want a JSON object");
      }
      return (Map<String, Object>) v;
    }

    private void ws() {
      while (i < s.length() && " \t\r\n".indexOf(s.charAt(i)) >= 0) {
        i++;
      }
    }

    private Object value() {
      ws();
      if (i >= s.length()) {
        throw new IllegalArgumentException("unexpected end");
      }
      char c = s.charAt(i);
      switch (c) {
        case '{': {
          i++;
          LinkedHashMap<String, Object> m = new LinkedHashMap<>();
          ws();
          if (s.charAt(i) == '}') {
            i++;
            return m;
          }
          while (true) {
            ws();
            String k = string();
            ws();
            expect(':');
            m.put(k, value());
            ws();
            if (s.charAt(i) == ',') {
              i++;
              continue;
            }
            expect('}');
            return m;
          }
        }
        case '[': {
          i++;
          List<Object> l = new ArrayList<>();
          ws();
          if (s.charAt(i) == ']') {
            i++;
            return l;
          }
          while (true) {
            l.add(value());
            ws();
            if (s.charAt(i) == ',') {
              i++;
              continue;
            }
            expect(']');
            return l;
          }
        }
        case '"':
          return string();
        case 't':
          return literal("true", Boolean.TRUE);
        case 'f':
          return literal("false", Boolean.FALSE);
        case 'n':
          return literal("null", null);
        default:
          int start = i;
          while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) {
            i++;
          }
          if (start == i) {
            throw new IllegalArgumentException("unexpected character at " + i);
          }
          return new Num(s.substring(start, i));
      }
    }

    private Object literal(String word, Object v) {
      if (!s.startsWith(word, i)) {
        throw new IllegalArgumentException("bad literal at " + i);
      }
      i += word.length();
      return v;
    }

    private void expect(char c) {
      if (i >= s.length() || s.charAt(i) != c) {
        throw new IllegalArgumentException("expected " + c + " at " + i);
      }
      i++;
    }

    private String string() {
      expect('"');
      StringBuilder b = new StringBuilder();
      while (true) {
        char c = s.charAt(i++);
        if (c == '"') {
          return b.toString();
        }
        if (c != '\\') {
          b.append(c);
          continue;
        }
        char e = s.charAt(i++);
        switch (e) {
          case 'n': b.append('\n'); break;
          case 't': b.append('\t'); break;
          case 'r': b.append('\r'); break;
          case 'b': b.append('\b'); break;
          case 'f': b.append('\f'); break;
          case 'u':
            b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
            i += 4;
            break;
          default: b.append(e);
        }
      }
    }

    static void quote(StringBuilder b, String v) {
      b.append('"');
      for (int k = 0; k < v.length(); k++) {
        char c = v.charAt(k);
        if (c == '"' || c == '\\') {
          b.append('\\').append(c);
        } else if (c < 0x20) {
          b.append(String.format("\\u%04x", (int) c));
        } else {
          b.append(c);
        }
      }
      b.append('"');
    }
  }
}
