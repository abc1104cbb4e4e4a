/**
 * The JSON object in a model's answer: the whole text, a ```json fenced block, or the span from its first { to its
 * last } (models asked for JSON alone still add words or fences). Undefined when there is none that parses.
 */
export function jsonInAnswer(content: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(content)?.[1];
  const text = (fenced ?? content).trim();
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  if (start < 0 || end < start) return undefined;
  try {
    return JSON.parse(text.slice(start, end + 1));
  } catch {
    return undefined;
  }
}
