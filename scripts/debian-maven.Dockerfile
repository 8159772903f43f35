# Build image for the servers on hosts without a registry: FROM a debootstrapped runtime
# base (scripts/base-images.env's HTTPLAB_BUILD_JDK's), plus that JDK, Maven and the extra
# CA certificates in ca/ (an intercepting proxy's CA, without which Maven cannot reach
# Maven Central).
# Built by scripts/base-images.sh, whose build context holds only this file and ca/, with
# BASE_IMAGE and JDK as build args.
ARG BASE_IMAGE
FROM ${BASE_IMAGE}
ARG JDK
# Debian 13's (trixie) Maven, the suite of the JDK 21+ runtime bases.
ARG MAVEN_VERSION=3.9.9-1
# The JDK must match the JRE already in the base, so its version is read there.
RUN set -eu; \
    test -n "$JDK" || { echo "build arg JDK must name the base's JRE, e.g. JDK=25" >&2; exit 1; }; \
    jre=$(dpkg-query -W -f='${Version}' "openjdk-$JDK-jre-headless"); \
    cajava=$(dpkg-query -W -f='${Version}' ca-certificates-java); \
    apt-get update; \
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      "openjdk-$JDK-jdk-headless=$jre" "maven=$MAVEN_VERSION" "ca-certificates-java=$cajava"; \
    apt-get clean; rm -rf /var/lib/apt/lists/*
COPY ca/ /usr/local/share/ca-certificates/httplab/
# update-ca-certificates also refreshes Java's cacerts (ca-certificates-java hook);
# check that every added certificate really is in the keystore Java reads.
RUN set -eu; \
    update-ca-certificates; \
    store=$(readlink -f "$(dirname "$(readlink -f "$(command -v java)")")/../lib/security/cacerts"); \
    listing=$(keytool -list -keystore "$store" -storepass changeit); \
    for crt in /usr/local/share/ca-certificates/httplab/*.crt; do \
      [ -e "$crt" ] || continue; \
      fp=$(openssl x509 -noout -fingerprint -sha256 -in "$crt" | cut -d= -f2); \
      printf '%s\n' "$listing" | grep -qF "$fp" || { echo "not in $store: $crt" >&2; exit 1; }; \
      echo "trusted by Java: $crt"; \
    done; \
    mvn -v
