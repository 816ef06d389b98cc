#!/bin/sh
# Harness self-test: a script that fails without saying so.
exit 4
