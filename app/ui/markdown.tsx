/** Content already rendered and sanitised on the server (markdownToHtml, sanitizeHtml). */
export function Prose({ html, lang, dir }: { html: string; lang?: string; dir?: "auto" }) {
  return <div className="prose" lang={lang} dir={dir} dangerouslySetInnerHTML={{ __html: html }} />;
}
