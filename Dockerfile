# Companion in a container: the app as a non-root user, the database on a volume (/data).
#
#   podman build -t companion .          (or docker build)
#   podman run -d -p 8000:8000 -v companion-data:/data companion          (a club's own network)
#
# On the internet, put nginx in front and publish only nginx: deploy/compose.yaml runs this image with
# --behind-proxy beside nginx with deploy/nginx.conf.template (TLS; every request read whole, with
# deadlines, before the app sees it). `companion serve` alone reads requests with deadlines too (a slow
# client holds a socket, not a thread), but TLS, a body's pace and a flood of connections are a proxy's job.
#
# BASE: any image with Python 3.11+ and its venv module (the default, or a Debian bookworm with python3 and
# python3-venv: tests/test_container.py builds one with mmdebstrap when no registry can be reached).
# Wheels in ./wheels/ (pip wheel . -w wheels: the app's and its dependencies') are installed offline;
# without them pip builds the app from the sources and reaches PyPI.
ARG BASE=docker.io/library/python:3.11-slim
FROM ${BASE}
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
COPY pyproject.toml README.md babel.cfg /tmp/src/
COPY companion /tmp/src/companion
COPY templates /tmp/src/templates
COPY static /tmp/src/static
# "wheel[s]" matches nothing when there is no ./wheels: then only pyproject.toml is copied
COPY pyproject.toml wheel[s] /tmp/wheels/
RUN python3 -m venv /opt/companion \
 && if ls /tmp/wheels/*.whl >/dev/null 2>&1; then \
      /opt/companion/bin/pip install --no-cache-dir --no-index --find-links /tmp/wheels companion; \
    else /opt/companion/bin/pip install --no-cache-dir /tmp/src; fi \
 && rm -rf /tmp/src /tmp/wheels \
 && useradd --system --uid 10001 --user-group --home-dir /data --no-create-home --shell /usr/sbin/nologin companion \
 && mkdir -p /data && chown companion:companion /data
ENV PATH=/opt/companion/bin:$PATH COMPANION_DB=/data/companion.db
USER companion
WORKDIR /data
VOLUME /data
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s \
  CMD python3 -c "import urllib.request,sys; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=4).read() == b'ok' else 1)"
CMD ["companion", "serve", "--host", "0.0.0.0", "--port", "8000"]
