import { defineConfig } from "vitest/config"
import react from "@vitejs/plugin-react"
import { vanillaExtractPlugin } from "@vanilla-extract/vite-plugin"
import { compression } from "vite-plugin-compression2"

export default defineConfig({
  plugins: [
    react(),
    vanillaExtractPlugin(),
    // brotli and gzip twins of every text asset, served as they are by the server (preCompressed)
    compression({ algorithms: ["brotliCompress", "gzip"], include: /\.(m?js|css|html|svg|json|webmanifest)$/, threshold: 512, skipIfLargerOrEqual: true })
  ],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // maps for whoever debugs the build, never served (staticSite.ts refuses .map) nor named in the code
    sourcemap: "hidden",
    // the server reads it to name the app's chunks in a Link header (staticSite.ts)
    manifest: true,
    target: "es2022"
  },
  server: {
    proxy: {
      "/api": "http://127.0.0.1:8080",
      "/live": "http://127.0.0.1:8080",
      "/time.json": "http://127.0.0.1:8080",
      "/posters": "http://127.0.0.1:8080"
    }
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["tests/unit/**/*.test.ts", "tests/machines/**/*.test.ts"],
          environment: "node"
        }
      },
      {
        extends: true,
        test: {
          name: "ui",
          include: ["tests/ui/**/*.test.tsx", "tests/models/**/*.test.tsx"],
          environment: "jsdom"
        }
      },
      {
        extends: true,
        test: {
          name: "server",
          include: ["tests/server/**/*.test.ts"],
          environment: "node",
          testTimeout: 30_000,
          hookTimeout: 60_000
        }
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.test.ts"],
          environment: "node",
          // Each file drives its own server and Chromium, which wait on each other more than they
          // compute: two at a time on two cores, no more.
          maxWorkers: 2,
          testTimeout: 60_000,
          hookTimeout: 120_000
        }
      }
    ]
  }
})
