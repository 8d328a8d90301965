import { decryptSecret } from "../app-key";
import { config } from "../config";
import { MicrosoftGraphDirectory } from "./microsoft-graph";
import type { DirectoryProvider, DirectoryProviderName } from "./provider";

export interface ConnectionCredentials {
  provider: DirectoryProviderName;
  tenantId: string;
  clientId: string;
  clientSecretCiphertext: string;
}

/** The provider of a stored connection, its secret decrypted only here and only for the provider. */
export function providerFor(connection: ConnectionCredentials): DirectoryProvider {
  switch (connection.provider) {
    case "microsoft365":
      return new MicrosoftGraphDirectory({
        tenantId: connection.tenantId,
        clientId: connection.clientId,
        clientSecret: decryptSecret(connection.clientSecretCiphertext),
        loginUrl: config.microsoftLoginUrl(),
        graphUrl: config.microsoftGraphUrl(),
      });
  }
}
