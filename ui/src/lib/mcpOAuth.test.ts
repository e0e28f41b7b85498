import { describe, expect, it } from 'vitest';
import { oauthDraft, oauthSettings, parseScopes, type OAuthDraft } from './mcpOAuth';

const draft = (given: Partial<OAuthDraft>): OAuthDraft => ({ clientId: '', metadataUrl: '', scopes: '', secret: '', ...given });

describe('mcpOAuth', () => {
  it('splits scopes at spaces and commas, each once', () => {
    expect(parseScopes(' notes:read, notes:write  offline_access,,notes:read ')).toEqual(['notes:read', 'notes:write', 'offline_access']);
    expect(parseScopes(' , ')).toEqual([]);
  });

  it('leaves empty fields out and trims the rest', () => {
    expect(oauthSettings(draft({ clientId: '  ', metadataUrl: '', scopes: '' }))).toEqual({
      oauth: { client_id: null, client_metadata_url: null, scopes: [] },
    });
    expect(oauthSettings(draft({ clientId: ' hearth-desktop ', metadataUrl: ' https://example.com/client.json ', scopes: 'a b' }))).toEqual({
      oauth: { client_id: 'hearth-desktop', client_metadata_url: 'https://example.com/client.json', scopes: ['a', 'b'] },
    });
  });

  it('refuses a metadata URL that is not https, and a secret without a client ID', () => {
    for (const metadataUrl of ['http://example.com/client.json', 'example.com/client.json', 'https://', 'ftp://example.com/x']) {
      expect(oauthSettings(draft({ metadataUrl }))).toEqual({ problem: 'metadataUrl' });
    }
    expect(oauthSettings(draft({ secret: 's3cret' }))).toEqual({ problem: 'secretWithoutClient' });
    expect(oauthSettings(draft({ clientId: 'id', secret: 's3cret' }))).toEqual({ oauth: { client_id: 'id', client_metadata_url: null, scopes: [] } });
  });

  it('fills the fields from the settings, the secret never', () => {
    const filled = oauthDraft({ client_id: 'id', client_metadata_url: 'https://example.com/c.json', scopes: ['a', 'b'] });
    expect(filled).toEqual({ clientId: 'id', metadataUrl: 'https://example.com/c.json', scopes: 'a b', secret: '' });
    expect(oauthSettings(filled)).toEqual({ oauth: { client_id: 'id', client_metadata_url: 'https://example.com/c.json', scopes: ['a', 'b'] } });
  });
});
