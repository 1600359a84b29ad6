// The CLI reads only a config's default export: this is the entry check of .dependency-cruiser.mjs.
import { entryConfig } from "../../../.dependency-cruiser.mjs"

export default entryConfig
