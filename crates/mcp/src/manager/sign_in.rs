//! Signing in to and out of a server's OAuth authorization server: [`McpManager::sign_in`]
//! runs the authorization (the page in the browser), saves the tokens and restarts the server
//! with them; [`McpManager::sign_out`] forgets them.

use super::McpManager;
use crate::config::Transport;
use crate::oauth::{sign_in, sign_out, OAuthEnv, OAuthError};

impl McpManager {
    /// Replaces where tokens are kept and how authorization pages are shown (the OS keychain
    /// and the system browser unless set); servers connecting afterwards use it.
    pub fn set_oauth(&self, env: OAuthEnv) {
        if let Ok(mut oauth) = self.oauth.write() {
            *oauth = env;
        }
    }

    /// Signs in to the server `name` (with the challenge it last answered), then restarts it
    /// with the new tokens (its secrets read again through `secret`).
    pub async fn sign_in(
        &self,
        name: &str,
        secret: &(dyn Fn(&str) -> Option<String> + Sync),
    ) -> Result<(), OAuthError> {
        let server = self
            .servers()
            .into_iter()
            .map(|(server, _)| server)
            .find(|server| server.spec.name == name)
            .ok_or_else(|| OAuthError::NotHttp(name.to_string()))?;
        let Transport::Http { url, oauth, .. } = &server.spec.transport else {
            return Err(OAuthError::NotHttp(name.to_string()));
        };
        let env = self.oauth_env();
        let challenge = server.challenge();
        server
            .log
            .line("hearth: signing in (the authorization page opens)");
        let signed = sign_in(name, url, oauth, challenge.as_deref(), &env).await;
        if let Err(error) = &signed {
            server.log.line(&format!("hearth: {error}"));
        }
        signed?;
        self.restart(name, secret);
        Ok(())
    }

    /// Forgets the server `name`'s tokens and restarts it (it then asks for a sign-in).
    pub fn sign_out(
        &self,
        name: &str,
        secret: &dyn Fn(&str) -> Option<String>,
    ) -> Result<(), OAuthError> {
        sign_out(name, &self.oauth_env())?;
        self.restart(name, secret);
        Ok(())
    }

    fn oauth_env(&self) -> OAuthEnv {
        self.oauth.read().map(|env| env.clone()).unwrap_or_default()
    }
}
