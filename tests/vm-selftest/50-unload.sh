#!/bin/sh
# Harness self-test: a script that leaves the module unloaded.
rmmod syncdev
