// Model text as Markdown. Raw HTML in the text is shown escaped, never executed; links open
// outside the app without a referrer; remote images are not loaded (they would tell a third
// party what you are looking at) but shown as links.
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';

const components: Components = {
  a: ({ href, children }) => (
    <a href={href} target="_blank" rel="noopener noreferrer" className="text-blue-600 underline dark:text-blue-400">
      {children}
    </a>
  ),
  img: ({ src, alt }) => (
    <a
      href={typeof src === 'string' ? src : undefined}
      target="_blank"
      rel="noopener noreferrer"
      className="text-blue-600 underline dark:text-blue-400"
    >
      [image: {alt || (typeof src === 'string' ? src : '')}]
    </a>
  ),
};

export function Markdown({ text }: { text: string }) {
  return (
    <div className="loupe-markdown text-[13px] leading-relaxed" data-testid="markdown">
      <ReactMarkdown remarkPlugins={[remarkGfm]} components={components}>
        {text}
      </ReactMarkdown>
    </div>
  );
}
