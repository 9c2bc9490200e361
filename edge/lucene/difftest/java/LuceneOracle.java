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
 * by the classic QueryParser (Parsers.OracleParser: split_on_whitespace false, leading
 * wildcards allowed, Elasticsearch's fuzziness AUTO for a bare "~", ES's exists syntax
 * and one-sided ranges, typed fields, and ES's match-all filter for purely negative
 * groups); {"t":"sqs","q":"<simple_query_string>","fields":[{"f":"<field>","b":2},...],
 * "and":false}, parsed by Lucene's SimpleQueryParser with what Elasticsearch's
 * SimpleQueryStringQueryParser overrides (Parsers.SimpleParser); or a tree of Lucene
 * queries the harness built from a search DSL clause (see Queries.build). Analysis of
 * query text (match, match_phrase) is Lucene's QueryBuilder.
 */

import java.io.BufferedReader;
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
import org.apache.lucene.analysis.charfilter.HTMLStripCharFilter;
import org.apache.lucene.analysis.core.KeywordAnalyzer;
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
import org.apache.lucene.queryparser.classic.QueryParser;
import org.apache.lucene.queryparser.simple.SimpleQueryParser;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TopScoreDocCollector;
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
        Query q = Queries.build(req);
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
