// Ready-to-paste client setup for the proxy URL, one per way people call the API.
export interface Snippet {
  id: string;
  title: string;
  code: string;
}

export function snippets(proxyUrl: string): Snippet[] {
  return [
    { id: 'env', title: 'Any SDK: environment variable', code: `export OPENAI_BASE_URL=${proxyUrl}` },
    {
      id: 'node',
      title: 'Node',
      code: `import OpenAI from 'openai';\n\nconst client = new OpenAI({ baseURL: '${proxyUrl}' });\nconst response = await client.responses.create({ model: 'gpt-5', input: 'Hello' });`,
    },
    {
      id: 'python',
      title: 'Python',
      code: `from openai import OpenAI\n\nclient = OpenAI(base_url="${proxyUrl}")\nresponse = client.responses.create(model="gpt-5", input="Hello")`,
    },
    {
      id: 'curl',
      title: 'curl',
      code: `curl ${proxyUrl}/responses \\\n  -H "Authorization: Bearer $OPENAI_API_KEY" \\\n  -H 'Content-Type: application/json' \\\n  -d '{"model": "gpt-5", "input": "Hello"}'`,
    },
  ];
}

/** `/s/<label>/v1`: the proxy URL that names the run. */
export function labelledUrl(proxyUrl: string, label: string): string {
  return proxyUrl.replace(/\/v1$/, `/s/${encodeURIComponent(label)}/v1`);
}
