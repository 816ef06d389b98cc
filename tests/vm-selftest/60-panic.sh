#!/bin/sh
# Harness self-test: a guest kernel panic.
echo c >/proc/sysrq-trigger
