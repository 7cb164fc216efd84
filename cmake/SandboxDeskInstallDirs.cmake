# Where `cmake --install` and the .deb put things, relative to the prefix.
include(GNUInstallDirs)

# Programs only other programs start stay off the PATH, in a private folder found
# relative to the starting program's own (never through a path of the build tree: an
# installed program must work wherever the prefix is). In a build tree all programs
# sit together in bin/ and are found there first.
#   mcp-gateway          runs inside sandboxes; the local backend finds it
#   sandbox-desk-window  the window; `sandbox-desk` starts it when no action is given
set(SANDBOX_DESK_INSTALL_PRIVATEDIR "lib/sandbox-desk")
set(SANDBOX_DESK_INSTALL_DATADIR "${CMAKE_INSTALL_DATADIR}/sandbox-desk")
# From bin/ to the private folder, and back.
file(RELATIVE_PATH SANDBOX_DESK_PRIVATE_RELDIR
    "/prefix/${CMAKE_INSTALL_BINDIR}" "/prefix/${SANDBOX_DESK_INSTALL_PRIVATEDIR}")
file(RELATIVE_PATH SANDBOX_DESK_BIN_RELDIR
    "/prefix/${SANDBOX_DESK_INSTALL_PRIVATEDIR}" "/prefix/${CMAKE_INSTALL_BINDIR}")
