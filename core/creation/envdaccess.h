#pragma once

#include "api/connectionsettings.h"
#include "api/sandbox.h"
#include "envd/envdtarget.h"

namespace sd {

/// Where a sandbox's envd is: the shared sandbox URL (routed by headers) when one is
/// configured, otherwise `https://49983-<id>.<domain>`.
inline EnvdTarget envdTargetFor(const ConnectionSettings &settings, const Sandbox &sandbox)
{
    if (settings.routesEnvdByHeader())
        return EnvdTarget::forSharedUrl(settings.sandboxUrl, sandbox.sandboxId, sandbox.envdAccessToken);
    return EnvdTarget::forSandboxHost(sandbox.domain.isEmpty() ? settings.domain : sandbox.domain,
                                      sandbox.sandboxId, sandbox.envdAccessToken);
}

} // namespace sd
