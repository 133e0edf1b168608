// Linear blend skinning: each vertex, moved first by its corrective shape in this pose, moves by
// the weighted average of up to eight joints' skinning matrices, read from a float texture (one
// row of four texels per joint). Outputs the varyings three-d's materials read, like its own
// mesh shader.

uniform mat4 viewProjection;
uniform highp sampler2D skinningMatrices;

in vec3 position;
in vec3 shape;
in vec3 normal;
in vec4 joints0;
in vec4 joints1;
in vec4 weights0;
in vec4 weights1;

#ifdef USE_UVS
in vec2 uv_coordinates;
out vec2 uvs;
#endif

#ifdef USE_VERTEX_COLORS
in vec4 color;
#endif

out vec3 pos;
out vec3 nor;
out vec4 col;
flat out int instance_id;

mat4 skinningMatrix(float joint)
{
    // Texture rows are stored bottom-up.
    int row = textureSize(skinningMatrices, 0).y - 1 - int(joint + 0.5);
    return mat4(
        texelFetch(skinningMatrices, ivec2(0, row), 0),
        texelFetch(skinningMatrices, ivec2(1, row), 0),
        texelFetch(skinningMatrices, ivec2(2, row), 0),
        texelFetch(skinningMatrices, ivec2(3, row), 0));
}

void main()
{
    float total = dot(weights0, vec4(1.0)) + dot(weights1, vec4(1.0));
    mat4 skin = mat4(1.0);
    if (total > 0.0) {
        skin = weights0.x * skinningMatrix(joints0.x) + weights0.y * skinningMatrix(joints0.y)
             + weights0.z * skinningMatrix(joints0.z) + weights0.w * skinningMatrix(joints0.w);
        if (weights1.x > 0.0) {
            skin += weights1.x * skinningMatrix(joints1.x) + weights1.y * skinningMatrix(joints1.y)
                  + weights1.z * skinningMatrix(joints1.z) + weights1.w * skinningMatrix(joints1.w);
        }
        skin *= 1.0 / total;
    }
    vec4 world = skin * vec4(position + shape, 1.0);
    pos = world.xyz / world.w;
    gl_Position = viewProjection * vec4(pos, 1.0);
    nor = normalize(mat3(skin) * normal);

#ifdef USE_UVS
    uvs = uv_coordinates;
#endif

    col = vec4(1.0);
#ifdef USE_VERTEX_COLORS
    col *= color;
#endif
    instance_id = gl_InstanceID;
}
