// English strings of the Knowledge page and of cited snippets in chats (spread into `en`).
export const knowledgeEn = {
  'sidebar.knowledge': 'Knowledge',
  'knowledge.title': 'Knowledge',
  'knowledge.intro':
    'Folders of documents Hearth indexes for knowledge_search. Changes are followed while Hearth runs; only changed files are read again.',
  'knowledge.folders': 'Folders',
  'knowledge.defaultFolder': 'No folders set: the default folder is used.',
  'knowledge.addFolder': 'Add folder…',
  'knowledge.removeFolder': 'Remove {folder}',
  'knowledge.rebuild': 'Index changes now',
  'knowledge.counts': '{files} files · {chunks} chunks · {errors} unreadable',
  'knowledge.lastIndexed': 'Last indexed {when}',
  'knowledge.never': 'Not indexed yet',
  'knowledge.progress': 'Indexing {done} of {total}',
  'knowledge.watching': 'Following changes',
  'knowledge.errors': 'Files that could not be read',
  'knowledge.search': 'Search the knowledge base',
  'knowledge.noResults': 'Nothing in the knowledge base matches “{query}”.',
  'knowledge.openCitation': 'Open {citation}',
  'knowledge.citations': 'Sources',
};
