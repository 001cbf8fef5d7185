/** RFC 9110 §5.6.2 tchar: the characters of a field name or method, as a regex class source. */
export const TCHAR = "[!#$%&'*+\\-.^_`|~0-9A-Za-z]";
