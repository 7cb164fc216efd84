#pragma once

#include <QString>

namespace sd::local {

/// The API key file sandbox-desk-local uses when no --api-key is given:
/// `<GenericDataLocation>/sandbox-desk/local-api-key` (~/.local/share/... on Linux).
/// The file holds the key and nothing else, readable by its owner only (0600).
class ApiKeyFile
{
public:
    static QString defaultPath();

    /// A new key shaped like E2B's (`e2b_` + 40 hex digits), so the SDKs accept it.
    static QString generateKey();

    /// Reads the key stored at `path`; if there is none, generates one and stores it
    /// with mode 0600 (its folder 0700). Tightens a looser mode on an existing file.
    /// Returns an empty string with a reason in `error` on failure.
    static QString loadOrCreate(const QString &path, QString *error);
};

} // namespace sd::local
