"""Work that outgrows one photo in memory or one machine: gigapixel images read by tiles and
blurred by blocks, and folders of photos, on Dask (threads, or a distributed cluster).

Dask, distributed and zarr are imported here only (the `scale` extra)."""
