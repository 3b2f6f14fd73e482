import { useEffect, useState, type ReactNode } from 'react';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import TextAlign from '@tiptap/extension-text-align';
import { Color, FontSize, TextStyle } from '@tiptap/extension-text-style';

// spec §9: the editor's tools: headings 1-3, paragraph, bold, italic, underline, alignment
// left/center/right, bullet and numbered lists, font size 1-7, text colour, link (asks for a URL),
// quote, clear formatting. Only these screens import this file, so no public page downloads TipTap.

/** Font sizes 1-7 as the CSS keywords the public sanitiser accepts. */
export const FONT_SIZES = ['x-small', 'small', 'medium', 'large', 'x-large', 'xx-large', 'xxx-large'] as const;
export const LINK_PROMPT = 'Enter the link address (starting with https://, http:// or mailto:)';
export const LINK_REFUSED = 'Links must start with https://, http:// or mailto:';
const ALLOWED_LINK = /^(https?:\/\/[^\s]+|mailto:[^\s]+)$/i;

function ToolButton({
  label,
  pressed,
  onClick,
  children,
  shortcut,
}: {
  label: string;
  pressed?: boolean;
  onClick: () => void;
  children: ReactNode;
  shortcut?: string;
}) {
  return (
    <button
      type="button"
      aria-pressed={pressed}
      aria-keyshortcuts={shortcut}
      title={shortcut ? `${label} (${shortcut.replace('Control', 'Ctrl')})` : label}
      onMouseDown={(e) => e.preventDefault()}
      onClick={onClick}
      className={`relative inline-flex h-9 min-w-9 items-center justify-center rounded-md px-2 text-sm font-semibold ${pressed ? 'bg-indigo-800 text-white' : 'bg-white text-slate-800 ring-1 ring-slate-300 hover:bg-indigo-50'}`}
    >
      {/* The name is the tool's full name ('Heading 1'); the short mark beside it is only for the eye. */}
      <span aria-hidden="true">{children}</span>
      <span className="sr-only">{label}</span>
    </button>
  );
}

function Toolbar({ editor }: { editor: Editor }) {
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      paragraph: e.isActive('paragraph'),
      h1: e.isActive('heading', { level: 1 }),
      h2: e.isActive('heading', { level: 2 }),
      h3: e.isActive('heading', { level: 3 }),
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      underline: e.isActive('underline'),
      left: e.isActive({ textAlign: 'left' }),
      center: e.isActive({ textAlign: 'center' }),
      right: e.isActive({ textAlign: 'right' }),
      bullet: e.isActive('bulletList'),
      ordered: e.isActive('orderedList'),
      quote: e.isActive('blockquote'),
      link: e.isActive('link'),
      fontSize: (e.getAttributes('textStyle').fontSize as string | undefined) ?? '',
      color: (e.getAttributes('textStyle').color as string | undefined) ?? '',
    }),
  });
  const chain = () => editor.chain().focus();

  function link() {
    if (state.link) {
      chain().extendMarkRange('link').unsetLink().run();
      return;
    }
    const url = window.prompt(LINK_PROMPT, 'https://')?.trim();
    if (!url || url === 'https://') return;
    if (!ALLOWED_LINK.test(url)) {
      window.alert(LINK_REFUSED);
      return;
    }
    chain().extendMarkRange('link').setLink({ href: url }).run();
  }

  return (
    <div
      role="group"
      aria-label="Formatting"
      className="flex flex-wrap items-center gap-1.5 border-b border-slate-300 bg-slate-50 p-2"
    >
      <ToolButton
        label="Paragraph"
        pressed={state.paragraph}
        shortcut="Control+Alt+0"
        onClick={() => chain().setParagraph().run()}
      >
        P
      </ToolButton>
      <ToolButton
        label="Heading 1"
        pressed={state.h1}
        shortcut="Control+Alt+1"
        onClick={() => chain().toggleHeading({ level: 1 }).run()}
      >
        H1
      </ToolButton>
      <ToolButton
        label="Heading 2"
        pressed={state.h2}
        shortcut="Control+Alt+2"
        onClick={() => chain().toggleHeading({ level: 2 }).run()}
      >
        H2
      </ToolButton>
      <ToolButton
        label="Heading 3"
        pressed={state.h3}
        shortcut="Control+Alt+3"
        onClick={() => chain().toggleHeading({ level: 3 }).run()}
      >
        H3
      </ToolButton>
      <span className="mx-1 h-6 w-px bg-slate-300" aria-hidden="true" />
      <ToolButton label="Bold" pressed={state.bold} shortcut="Control+B" onClick={() => chain().toggleBold().run()}>
        <strong>B</strong>
      </ToolButton>
      <ToolButton label="Italic" pressed={state.italic} shortcut="Control+I" onClick={() => chain().toggleItalic().run()}>
        <em>I</em>
      </ToolButton>
      <ToolButton
        label="Underline"
        pressed={state.underline}
        shortcut="Control+U"
        onClick={() => chain().toggleUnderline().run()}
      >
        <u>U</u>
      </ToolButton>
      <span className="mx-1 h-6 w-px bg-slate-300" aria-hidden="true" />
      <ToolButton
        label="Align left"
        pressed={state.left}
        shortcut="Control+Shift+L"
        onClick={() => chain().setTextAlign('left').run()}
      >
        ⇤
      </ToolButton>
      <ToolButton
        label="Align center"
        pressed={state.center}
        shortcut="Control+Shift+E"
        onClick={() => chain().setTextAlign('center').run()}
      >
        ↔
      </ToolButton>
      <ToolButton
        label="Align right"
        pressed={state.right}
        shortcut="Control+Shift+R"
        onClick={() => chain().setTextAlign('right').run()}
      >
        ⇥
      </ToolButton>
      <span className="mx-1 h-6 w-px bg-slate-300" aria-hidden="true" />
      <ToolButton
        label="Bullet list"
        pressed={state.bullet}
        shortcut="Control+Shift+8"
        onClick={() => chain().toggleBulletList().run()}
      >
        •
      </ToolButton>
      <ToolButton
        label="Numbered list"
        pressed={state.ordered}
        shortcut="Control+Shift+7"
        onClick={() => chain().toggleOrderedList().run()}
      >
        1.
      </ToolButton>
      <ToolButton label="Quote" pressed={state.quote} shortcut="Control+Shift+B" onClick={() => chain().toggleBlockquote().run()}>
        ❝
      </ToolButton>
      <ToolButton label={state.link ? 'Remove link' : 'Link'} pressed={state.link} onClick={link}>
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          className="h-4 w-4"
          fill="none"
          stroke="currentColor"
          strokeWidth={2}
          strokeLinecap="round"
        >
          <path d="M10 14a4 4 0 005.7 0l3-3a4 4 0 00-5.7-5.7l-1 1M14 10a4 4 0 00-5.7 0l-3 3a4 4 0 005.7 5.7l1-1" />
        </svg>
      </ToolButton>
      <span className="mx-1 h-6 w-px bg-slate-300" aria-hidden="true" />
      <label className="inline-flex items-center gap-1 text-sm font-medium text-slate-800">
        Font size
        <select
          value={String(FONT_SIZES.indexOf(state.fontSize as (typeof FONT_SIZES)[number]) + 1 || '')}
          onChange={(e) => {
            const size = FONT_SIZES[Number(e.target.value) - 1];
            if (size) chain().setFontSize(size).run();
            else chain().unsetFontSize().run();
          }}
          className="h-9 rounded-md border border-slate-300 bg-white px-1"
        >
          <option value="">Normal</option>
          {FONT_SIZES.map((_, i) => (
            <option key={i + 1} value={String(i + 1)}>
              {i + 1}
            </option>
          ))}
        </select>
      </label>
      <label className="inline-flex items-center gap-1 text-sm font-medium text-slate-800">
        Text colour
        <input
          type="color"
          value={/^#[0-9a-f]{6}$/i.test(state.color) ? state.color : '#1e293b'}
          onChange={(e) => chain().setColor(e.target.value).run()}
          className="h-9 w-10 cursor-pointer rounded-md border border-slate-300 bg-white p-0.5"
        />
      </label>
      <ToolButton label="Clear formatting" onClick={() => chain().unsetAllMarks().clearNodes().unsetTextAlign().run()}>
        ⌫ Clear
      </ToolButton>
    </div>
  );
}

/** The rich-text body field. Its HTML goes into a hidden input named `name` for the form. */
export function RichTextEditor({
  id,
  name,
  initialHtml,
  invalid,
  describedBy,
  onChange,
}: {
  id: string;
  name: string;
  initialHtml: string;
  invalid: boolean;
  describedBy?: string;
  onChange: (html: string) => void;
}) {
  const [html, setHtml] = useState(initialHtml);
  const editor = useEditor({
    immediatelyRender: false,
    extensions: [
      StarterKit.configure({
        heading: { levels: [1, 2, 3] },
        code: false,
        codeBlock: false,
        horizontalRule: false,
        strike: false,
        link: {
          openOnClick: false,
          autolink: true,
          defaultProtocol: 'https',
          protocols: ['http', 'https', 'mailto'],
          isAllowedUri: (url) => ALLOWED_LINK.test(url) || url.startsWith('/'),
          HTMLAttributes: { rel: 'noopener noreferrer', target: '_blank' },
        },
      }),
      TextStyle,
      Color,
      FontSize,
      TextAlign.configure({ types: ['heading', 'paragraph'], alignments: ['left', 'center', 'right'] }),
    ],
    content: initialHtml,
    editorProps: {
      attributes: {
        id,
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-labelledby': `${id}-label`,
        ...(describedBy ? { 'aria-describedby': describedBy } : {}),
        ...(invalid ? { 'aria-invalid': 'true' } : {}),
        class:
          'min-h-[500px] px-4 py-3 text-lg leading-relaxed text-slate-900 outline-none [&_blockquote]:border-l-4 [&_blockquote]:border-amber-400 [&_blockquote]:pl-4 [&_blockquote]:italic [&_h1]:text-3xl [&_h1]:font-bold [&_h2]:text-2xl [&_h2]:font-bold [&_h3]:text-xl [&_h3]:font-bold [&_a]:text-indigo-800 [&_a]:underline [&_ol]:list-decimal [&_ol]:pl-6 [&_ul]:list-disc [&_ul]:pl-6 [&_p]:my-3',
      },
    },
    onUpdate: ({ editor: e }) => {
      const next = e.isEmpty ? '' : e.getHTML();
      setHtml(next);
      onChange(next);
    },
  });

  // Keep aria-invalid in step with validation after the editor exists.
  useEffect(() => {
    editor?.setOptions({
      editorProps: {
        ...editor.options.editorProps,
        attributes: {
          ...(editor.options.editorProps.attributes as Record<string, string>),
          'aria-invalid': invalid ? 'true' : 'false',
        },
      },
    });
  }, [editor, invalid]);

  return (
    <div
      className={`overflow-hidden rounded-lg border-2 bg-white ${invalid ? 'border-red-700' : 'border-slate-300 focus-within:border-indigo-700'}`}
    >
      <input type="hidden" name={name} value={html} />
      {editor ? (
        <Toolbar editor={editor} />
      ) : (
        <div className="h-[53px] border-b border-slate-300 bg-slate-50" aria-hidden="true" />
      )}
      <div className="max-h-[600px] overflow-y-auto">
        <EditorContent editor={editor} />
      </div>
    </div>
  );
}
