# Arbiter API: slim, non-root, with a health check. The container only serves; migrating
# is its own release step, run once before the replicas start:
#   docker run --rm -e ARBITER_DATABASE_URL=... arbiter arbiter migrate
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 \
    ARBITER_DATABASE_URL=sqlite+aiosqlite:////data/arbiter.db

WORKDIR /app
COPY pyproject.toml README.md ./
COPY service ./service
COPY migrations ./migrations
# with the optional Redis live bus (ARBITER_BUS_URL), for replicas LISTEN does not reach
RUN pip install '.[redis]' && useradd --create-home --uid 10001 arbiter \
    && mkdir /data && chown arbiter /data

USER arbiter
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=3s --start-period=10s \
    CMD python -c "import urllib.request,sys; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2).status == 200 else 1)"
CMD ["arbiter", "serve", "--host", "0.0.0.0", "--port", "8000"]
