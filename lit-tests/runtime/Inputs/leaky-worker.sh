#!/bin/sh
# Stands in for ivc-worker --audit on a machine where a canary gets through.
echo "refused  socket                 socket(AF_INET, SOCK_STREAM) -> EPERM (unlocked: succeeds)"
echo "FAILED   open-host-file         openat(\"/etc/passwd\", O_RDONLY) -> succeeds (unlocked: succeeds)"
echo "ivc audit: 1 of 2 canaries refused"
exit 1
