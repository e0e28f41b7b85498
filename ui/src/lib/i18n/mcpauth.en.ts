// English strings of signing in to URL MCP servers with OAuth and of their OAuth settings
// (spread into `en`).
export const mcpauthEn = {
  'mcpauth.state.needsSignIn': 'Needs sign-in',
  'mcpauth.signIn': 'Sign in',
  'mcpauth.signOut': 'Sign out',
  'mcpauth.waiting': 'Finish signing in on the page that opened in your browser…',
  'mcpauth.signedIn': 'Signed in to {name}',
  'mcpauth.signedOut': 'Signed out of {name}',
  'mcpauth.oauth': 'OAuth sign-in',
  'mcpauth.oauthHint':
    'All optional: left empty, Hearth registers itself with the server’s authorization server and asks for the scopes the server names. The client secret is kept in the OS keychain, not in config.toml.',
  'mcpauth.clientId': 'Client ID (registered beforehand)',
  'mcpauth.clientSecret': 'Client secret',
  'mcpauth.secretPlaceholder': 'Type a new secret to store it',
  'mcpauth.secretStored': 'A secret is stored ({masked}).',
  'mcpauth.secretNone': 'No client secret stored.',
  'mcpauth.secretRemove': 'Remove the secret',
  'mcpauth.metadataUrl': 'Client ID metadata document URL',
  'mcpauth.scopes': 'Scopes (separated by spaces or commas)',
  'mcpauth.problem.metadataUrl': 'The client metadata URL must be an https:// address.',
  'mcpauth.problem.secretWithoutClient': 'A client secret needs the client ID it belongs to.',
};
