// English strings of the Knowledge page and of cited snippets in chats (spread into `en`).
export const knowledgeEn = {
  'sidebar.knowledge': 'Knowledge',
  'knowledge.title': 'Knowledge',
  'knowledge.intro':
    'Folders of documents Hearth indexes for knowledge_search. Only changed files are read again.',
  'knowledge.folders': 'Folders',
  'knowledge.defaultFolder': 'No folders set: the default folder is used.',
  'knowledge.addFolder': 'Add folder…',
  'knowledge.removeFolder': 'Remove {folder}',
  'knowledge.rebuild': 'Index changes now',
  'knowledge.counts': '{files} files · {chunks} chunks · {errors} unreadable',
  'knowledge.lastIndexed': 'Last indexed {when}',
  'knowledge.never': 'Not indexed yet',
  'knowledge.progress': 'Indexing {done} of {total}',
  'knowledge.scanning': 'Looking for files…',
  'knowledge.watching': 'Following changes',
  'knowledge.watch': 'Follow changes to these folders while Hearth runs',
  'knowledge.errors': 'Files that could not be read',
  'knowledge.search': 'Search the knowledge base',
  'knowledge.noResults': 'Nothing in the knowledge base matches “{query}”.',
  'knowledge.openCitation': 'Open {citation}',
  'knowledge.citations': 'Sources',
  'knowledge.openedOnly.page':
    'Opened the file, but not at page {n}: no installed PDF viewer takes a page (Evince, Okular, Zathura, MuPDF, SumatraPDF or Skim do).',
  'knowledge.openedOnly.line':
    'Opened the file, but not at line {n}: no installed editor takes a line (VS Code, VSCodium, Sublime Text, Kate, gedit or Notepad++ do).',
  'knowledge.openedOnly.slide': 'Opened the file at its start: presentations cannot be opened at a slide (slide {n}).',
  'knowledge.openedOnly.sheet': 'Opened the file at its start: spreadsheets cannot be opened at a sheet (sheet {n}).',
  'knowledge.openedOnly.other': 'Opened the file at its start: this format cannot be opened at the cited page or line.',
};
