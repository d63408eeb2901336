/**
 * The sdk's version, sent in the default `User-Agent`. A constant rather than a read of
 * package.json because the compiled tree (`dist/sdk`) sits at a different depth than the sources;
 * a test keeps it equal to package.json's version.
 */
export const SDK_VERSION = "0.3.0";
