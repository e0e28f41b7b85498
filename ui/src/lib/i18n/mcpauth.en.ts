// English strings of signing in to URL MCP servers with OAuth (spread into `en`).
export const mcpauthEn = {
  'mcpauth.state.needsSignIn': 'Needs sign-in',
  'mcpauth.signIn': 'Sign in',
  'mcpauth.signOut': 'Sign out',
  'mcpauth.waiting': 'Finish signing in on the page that opened in your browser…',
  'mcpauth.signedIn': 'Signed in to {name}',
  'mcpauth.signedOut': 'Signed out of {name}',
};
