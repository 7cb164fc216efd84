#include "logging.h"

Q_LOGGING_CATEGORY(lcApi, "sd.api", QtInfoMsg)
Q_LOGGING_CATEGORY(lcEnvd, "sd.envd", QtInfoMsg)
Q_LOGGING_CATEGORY(lcCreation, "sd.creation", QtInfoMsg)
Q_LOGGING_CATEGORY(lcJournal, "sd.journal", QtInfoMsg)
Q_LOGGING_CATEGORY(lcOrphans, "sd.orphans", QtInfoMsg)
Q_LOGGING_CATEGORY(lcProfiles, "sd.profiles", QtInfoMsg)
Q_LOGGING_CATEGORY(lcLocal, "sd.local", QtInfoMsg)
