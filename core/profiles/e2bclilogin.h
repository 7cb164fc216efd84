#pragma once

#include <QString>

namespace sd {

/// The login the official E2B CLI keeps in ~/.e2b/config.json (written by
/// `e2b auth login`), read so its API key can become an E2B profile.
///
/// Two shapes exist, as the CLI (@e2b/cli 2.x) reads them:
///   "version": 2   projectApiKey, projectName, projectId
///   "version": 1   teamApiKey, teamName, teamId (the CLI migrates these to version 2)
/// both beside the user's email and OAuth tokens. Only the key and the names of its
/// project or team are read; the tokens and the email are never looked at, and the
/// file is never written. The file names no domain: the CLI takes E2B_DOMAIN.
class E2bCliLogin
{
public:
    enum class Owner
    {
        Project, ///< version 2
        Team, ///< version 1
    };

    /// ~/.e2b/config.json of the user running this (HOME decides, as for the CLI).
    static QString defaultPath();
    /// Reads `path` once. Never fails: a missing or unusable file gives a login whose
    /// exists() / isUsable() say so and whose problem() says why.
    static E2bCliLogin read(const QString &path = defaultPath());

    QString path() const { return m_path; }
    bool exists() const { return m_exists; }
    /// True when the file holds a key with its project or team.
    bool isUsable() const { return m_exists && m_problem.isEmpty(); }
    /// Why an existing file cannot be used (empty when it can).
    QString problem() const { return m_problem; }

    Owner owner() const { return m_owner; }
    QString ownerName() const { return m_ownerName; }
    QString ownerId() const { return m_ownerId; }
    /// "the project “Name” (id)" or "the team “Name” (id)": what the key belongs to.
    QString ownerDescription() const;
    /// The API key: a secret, never logged or shown.
    QString apiKey() const { return m_apiKey; }

private:
    QString m_path;
    bool m_exists = false;
    QString m_problem;
    Owner m_owner = Owner::Project;
    QString m_ownerName;
    QString m_ownerId;
    QString m_apiKey; // secret: never log it
};

} // namespace sd
