/**
 * Syntax colouring for pack files: YAML, with the rules language inside `rules:` block scalars.
 * A Monarch tokenizer: the YAML states follow Monaco's own YAML grammar; a `rules: |` header
 * switches to the rules states for as long as lines stay indented deeper than the header.
 */
import type { languages } from 'monaco-editor/editor';
import { keywordSet } from '../../dsl/lexer.ts';

export const LANGUAGE_ID = 'rulebook-yaml';

export const languageConfiguration: languages.LanguageConfiguration = {
  comments: { lineComment: '#' },
  brackets: [
    ['{', '}'],
    ['[', ']'],
    ['(', ')'],
  ],
  autoClosingPairs: [
    { open: '{', close: '}' },
    { open: '[', close: ']' },
    { open: '(', close: ')' },
    { open: '"', close: '"', notIn: ['string'] },
  ],
  surroundingPairs: [
    { open: '{', close: '}' },
    { open: '[', close: ']' },
    { open: '(', close: ')' },
    { open: '"', close: '"' },
  ],
  folding: { offSide: true },
  wordPattern: /[A-Za-z_][A-Za-z0-9_-]*/,
};

/** Type names of the rules language, coloured as types. */
const typeNames = ['number', 'bool', 'text', 'list', 'player', 'entity'];

export const monarch: languages.IMonarchLanguage = {
  defaultToken: '',
  tokenPostfix: '.rb',
  keywords: [...keywordSet],
  typeNames,
  yamlConstants: ['true', 'false', 'null', '~'],
  operators: /==|!=|<=|>=|\+=|-=|\.\.|[=<>+\-*/%?]/,
  tokenizer: {
    root: [
      [/[ \t\r\n]+/, 'white'],
      [/#.*$/, 'comment'],
      // `rules: |` starts a block of the rules language.
      // (Leading spaces are taken by the rule above, so this matches `rules:` at any indentation.)
      // The state change rides on the `|` (Monarch skips the actions of groups that matched nothing).
      [/(rules)([ \t]*)(:)([ \t]*)([|>][0-9]*[+-]?)(?=[ \t]*$)/, ['key.rules', 'white', 'delimiter', 'white', { token: 'operator', next: '@rulesStart' }]],
      [/%[^ ]+.*$/, 'meta'],
      [/---|\.\.\./, 'delimiter'],
      [/[-?:](?= )/, 'delimiter'],
      [/[&*][^ ]+/, 'namespace'],
      [/![^ ]*/, 'tag'],
      [/\[/, '@brackets', '@flowSeq'],
      [/\{/, '@brackets', '@flowMap'],
      [/[>|][0-9]*[+-]?$/, 'operator', '@textStart'],
      [/(".*?"|'.*?'|[^#'"\s][^#'"]*?)([ \t]*)(:)( |$)/, ['key', 'white', 'delimiter', 'white']],
      [/-?\d+(\.\d+)?(?=\s*(#|$))/, 'number'],
      [/"([^"\\]|\\.)*"/, 'string'],
      [/'[^']*'/, 'string'],
      [/[^#]+?(?=\s+#|$)/, { cases: { '@yamlConstants': 'keyword.constant', '@default': 'string.plain' } }],
    ],
    flowSeq: [
      [/[ \t]+/, 'white'],
      [/\]/, '@brackets', '@pop'],
      [/,/, 'delimiter'],
      [/\[/, '@brackets', '@flowSeq'],
      [/\{/, '@brackets', '@flowMap'],
      [/"([^"\\]|\\.)*"/, 'string'],
      [/-?\d+(\.\d+)?(?=\s*[,\]])/, 'number'],
      [/[^\],[{]+/, { cases: { '@yamlConstants': 'keyword.constant', '@default': 'string.plain' } }],
    ],
    flowMap: [
      [/[ \t]+/, 'white'],
      [/\}/, '@brackets', '@pop'],
      [/,/, 'delimiter'],
      [/[^,{}[\]:\s][^,{}[\]:]*?(?=\s*:)/, 'key'],
      [/:/, 'delimiter'],
      [/\[/, '@brackets', '@flowSeq'],
      [/\{/, '@brackets', '@flowMap'],
      [/"([^"\\]|\\.)*"/, 'string'],
      [/-?\d+(\.\d+)?(?=\s*[,}])/, 'number'],
      [/[^},[{]+/, { cases: { '@yamlConstants': 'keyword.constant', '@default': 'string.plain' } }],
    ],
    // A text block (`text: |`): plain text while indented deeper than its first line.
    textStart: [
      [/^( +)(?=\S)/, { token: 'white', switchTo: '@textBlock.$1' }],
      [/^(?=\S)/, { token: '@rematch', next: '@pop' }],
    ],
    textBlock: [
      [/^( *)(?=\S)/, { cases: { '$1~$S2.*': 'white', '@default': { token: '@rematch', next: '@pop' } } }],
      [/.+$/, 'string.text'],
    ],
    // A rules block: its indentation is that of its first non-empty line.
    rulesStart: [
      [/^( +)(?=\S)/, { token: 'white', switchTo: '@rules.$1' }],
      [/^(?=\S)/, { token: '@rematch', next: '@pop' }],
    ],
    rules: [
      [/^( *)(?=\S)/, { cases: { '$1~$S2.*': 'white', '@default': { token: '@rematch', next: '@popall' } } }],
      { include: '@dsl' },
    ],
    dsl: [
      [/[ \t]+/, 'white'],
      [/#.*$/, 'comment'],
      [/(fn|proc|action|event|pipeline)(\s+)([A-Za-z_]\w*)/, ['keyword', 'white', 'decl']],
      [/(on|modify)(\s+)([A-Za-z_]\w*)/, ['keyword', 'white', 'event']],
      [/(\.)([A-Za-z_]\w*)/, ['delimiter', 'field']],
      [/([A-Za-z_]\w*)(?=\s*\()/, { cases: { '@keywords': 'keyword', '@default': 'call' } }],
      [/[A-Za-z_]\w*/, { cases: { '@keywords': 'keyword', '@typeNames': 'type', '@default': 'identifier' } }],
      [/\d+/, 'number'],
      [/"/, 'string', '@dslString'],
      [/[{}()[\]]/, '@brackets'],
      [/[,:]/, 'delimiter'],
      [/@operators/, 'operator'],
    ],
    dslString: [
      [/[^"\\{]+/, 'string'],
      [/\\./, 'string.escape'],
      [/\{/, 'string.hole', '@dslHole'],
      [/"/, 'string', '@pop'],
    ],
    dslHole: [
      [/\}/, 'string.hole', '@pop'],
      [/"/, 'string', '@pop'],
      { include: '@dsl' },
    ],
  },
};

export const themeRules: Array<{ token: string; foreground?: string; fontStyle?: string }> = [
  { token: 'key', foreground: '1f5f99' },
  { token: 'key.rules', foreground: '1f5f99', fontStyle: 'bold' },
  { token: 'string.plain', foreground: '2d2d2d' },
  { token: 'string.text', foreground: '5c5c5c', fontStyle: 'italic' },
  { token: 'string', foreground: 'a3551a' },
  { token: 'string.hole', foreground: '8a3ab9', fontStyle: 'bold' },
  { token: 'number', foreground: '0b7a55' },
  { token: 'comment', foreground: '8a8f98', fontStyle: 'italic' },
  { token: 'keyword', foreground: '8a3ab9', fontStyle: 'bold' },
  { token: 'keyword.constant', foreground: '0b7a55' },
  { token: 'type', foreground: '0f7c8c' },
  { token: 'decl', foreground: 'b5480b', fontStyle: 'bold' },
  { token: 'event', foreground: 'b5480b' },
  { token: 'call', foreground: '1b56b5' },
  { token: 'field', foreground: '3d6b21' },
  { token: 'identifier', foreground: '24292f' },
  { token: 'operator', foreground: '6b4b00' },
  { token: 'delimiter', foreground: '6a737d' },
];
