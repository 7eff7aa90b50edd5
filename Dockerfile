FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY companion ./companion
COPY templates ./templates
COPY static ./static
RUN pip install --no-cache-dir -e .
ENV COMPANION_DB=/data/companion.db
VOLUME /data
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s \
  CMD python -c "import urllib.request,sys; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=4).read() == b'ok' else 1)"
CMD ["companion", "serve", "--host", "0.0.0.0", "--port", "8000"]
