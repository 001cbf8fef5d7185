/** RFC 9110 §5.6.2 tchar: the characters of a field name or method. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Whether `text` is a token (a field name, a method): one or more tchars. */
export function isToken(text: string): boolean {
  return TOKEN.test(text);
}
