# The wrk image's local base, for hosts without a registry: the debootstrapped runtime
# base (JRE and wrk) plus the extra CA certificates in ca/ (an intercepting proxy's CA),
# without which the wrk image's oha stage cannot fetch its crates from crates.io.
# Built by scripts/base-images.sh, whose build context holds only this file and ca/.
ARG BASE_IMAGE=httplab/debian-jre:bookworm
FROM ${BASE_IMAGE}
COPY ca/ /usr/local/share/ca-certificates/httplab/
RUN update-ca-certificates
