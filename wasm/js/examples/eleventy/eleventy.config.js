// Eleventy reads src/ and writes _site/. The content comes from src/_data/cda.js, which
// asks a cdaedge snapshot through @cdaedge/engine at build time.
export default function (eleventyConfig) {
  eleventyConfig.addFilter('date', (iso) => String(iso ?? '').slice(0, 10));
  return { dir: { input: 'src', output: '_site' } };
}
