/** Content already rendered and sanitised on the server (markdownToHtml, sanitizeHtml). */
export function Prose({ html }: { html: string }) {
  return <div className="prose" dangerouslySetInnerHTML={{ __html: html }} />;
}
