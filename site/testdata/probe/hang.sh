#!/bin/sh
# A "server" that reads standard input and never answers anything, for the
# probe test that proves the probe ends within its limits and kills the
# server's whole process group (site/probe_test.go). It starts a child that
# lives for an hour and writes that child's pid to the file named by $1.
sleep 3600 &
echo $! > "$1"
exec cat > /dev/null
