// English strings of MCP resources and prompts in the composer (spread into `en`).
export const mcpResourcesEn = {
  'mcpres.resources': 'Resources',
  'mcpres.templates': 'Templates (fill in and ask the model to read them)',
  'mcpres.attach': 'Attach',
  'mcpres.attachTitle': 'Attach {uri} to the message',
  'mcpres.none': 'No resources.',
  'mcpres.prompts': 'MCP prompts',
  'mcpres.picker': 'Skills and prompts',
  'mcpres.pickerEmpty': 'No skill or prompt matches “{query}”.',
  'mcpres.promptForm': 'Arguments of {command}',
  'mcpres.required': 'required',
  'mcpres.insert': 'Insert',
  'mcpres.cancel': 'Cancel',
  'mcpres.missing': 'Fill in: {names}',
  'mcpres.failed': 'Could not get {command}: {error}',
  'mcpres.jobServers': 'MCP servers its runs may use (every tool)',
};
