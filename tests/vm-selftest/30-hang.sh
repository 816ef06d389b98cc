#!/bin/sh
# Harness self-test: a script that hangs past its timeout.
# vm-timeout: 3
sleep 1000
