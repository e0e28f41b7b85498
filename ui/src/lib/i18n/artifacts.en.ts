// English strings of artifact cards and their side panel (spread into `en`).
export const artifactsEn = {
  'artifact.card': 'Artifact {name}',
  'artifact.open': 'Open',
  'artifact.panel': 'Artifact',
  'artifact.close': 'Close',
  'artifact.loading': 'Loading the artifact…',
  'artifact.saveAs': 'Save as…',
  'artifact.saved': 'Saved to {path}',
  'artifact.copy': 'Copy',
  'artifact.open.state': 'Not finalized yet',
  'artifact.counts':
    '{characters} characters · {cjk} CJK characters · {words} English words · {lines} lines · {paragraphs} paragraphs · {headings} headings',
  'artifact.formatError': 'Not well-formed: {error}',
  'artifact.failed': 'The artifact could not be opened: {error}',
};
