# drivers/: libjointer, the CLI and their tests (targets added by the driver work).
