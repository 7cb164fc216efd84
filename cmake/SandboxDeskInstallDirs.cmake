# Where `cmake --install` and the .deb put things, relative to the prefix.
include(GNUInstallDirs)

# mcp-gateway only runs inside sandboxes, so it stays off the PATH, in a private
# folder the local backend finds relative to its own (never through a path of the
# build tree: an installed program must work wherever the prefix is).
set(SANDBOX_DESK_INSTALL_GATEWAYDIR "lib/sandbox-desk")
set(SANDBOX_DESK_INSTALL_DATADIR "${CMAKE_INSTALL_DATADIR}/sandbox-desk")
file(RELATIVE_PATH SANDBOX_DESK_GATEWAY_RELDIR
    "/prefix/${CMAKE_INSTALL_BINDIR}" "/prefix/${SANDBOX_DESK_INSTALL_GATEWAYDIR}")
